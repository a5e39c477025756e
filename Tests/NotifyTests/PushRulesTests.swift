import Contracts
import Foundation
import Testing

@testable import NotifyService

/// The queue's rules and APNs's answers, on their own.
struct PushRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var expires: Date { now.addingTimeInterval(86_400) }

    func decide(_ outcome: PushOutcome, attempts: Int = 0, expiresAt: Date? = nil) -> PushDecision {
        PushDecision.after(
            outcome, attempts: attempts, expiresAt: expiresAt ?? expires, now: now, base: 1, maxDelay: 300, maxAttempts: 10)
    }

    @Test func retriesBackOffExponentiallyUpToACap() {
        #expect(decide(.retry(reason: "429", after: nil)) == .retry(at: now.addingTimeInterval(1)))
        #expect(decide(.retry(reason: "429", after: nil), attempts: 3) == .retry(at: now.addingTimeInterval(8)))
        #expect(decide(.retry(reason: "503", after: nil), attempts: 8) == .retry(at: now.addingTimeInterval(256)))
        #expect(decide(.retry(reason: "503", after: nil), attempts: 9) == .drop(reason: "503; gave up after 10 attempts"))
        // What the service asked for wins.
        #expect(decide(.retry(reason: "QUOTA_EXCEEDED", after: 42)) == .retry(at: now.addingTimeInterval(42)))
    }

    @Test func aPushThatWouldArriveTooLateIsDropped() {
        #expect(
            decide(.retry(reason: "500", after: nil), attempts: 2, expiresAt: now.addingTimeInterval(3))
                == .drop(reason: "500; expired before the next attempt"))
    }

    @Test func invalidTokensAreForgottenAndRejectionsNeverRetried() {
        #expect(decide(.delivered) == .sent)
        #expect(decide(.tokenInvalid(reason: "Unregistered")) == .forgetToken(reason: "Unregistered"))
        #expect(decide(.rejected(reason: "DeviceTokenNotForTopic")) == .drop(reason: "DeviceTokenNotForTopic"))
    }

    @Test(arguments: [
        (200, "", PushOutcome.delivered),
        (410, "Unregistered", .tokenInvalid(reason: "Unregistered")),
        (400, "BadDeviceToken", .tokenInvalid(reason: "BadDeviceToken")),
        (400, "DeviceTokenNotForTopic", .rejected(reason: "DeviceTokenNotForTopic")),
        (403, "Forbidden", .rejected(reason: "Forbidden")),
        (413, "PayloadTooLarge", .rejected(reason: "PayloadTooLarge")),
        (403, "ExpiredProviderToken", .retry(reason: "ExpiredProviderToken", after: nil)),
        (429, "TooManyRequests", .retry(reason: "TooManyRequests", after: nil)),
        (500, "InternalServerError", .retry(reason: "InternalServerError", after: nil)),
        (503, "ServiceUnavailable", .retry(reason: "ServiceUnavailable", after: nil)),
    ])
    func apnsAnswersMeanWhatAppleSays(status: Int, reason: String, expected: PushOutcome) {
        #expect(APNsSender.outcome(status: status, reason: reason) == expected)
    }

    @Test func theAPNsPayloadCarriesTheAlertAndTheIdsTheAppOpens() throws {
        let game = GameID()
        let notification = PushContent(
            id: NotificationID(), category: .reminder, title: "In an hour", body: "Huddle Rovers at 18:00",
            data: NotificationData(gameId: game))
        let job = PushJob(
            id: PushJobID(), content: notification, recipient: UserID(),
            device: Device(platform: .apns, token: "ab", environment: .sandbox, topic: "app.huddle.ios", registeredAt: now),
            urgent: true, timeSensitive: true, attempts: 0, runAt: now, expiresAt: expires)
        let json = try #require(
            try JSONSerialization.jsonObject(with: APNsSender.payload(OutgoingPush(job: job, badge: 3)))
                as? [String: Any])
        let aps = try #require(json["aps"] as? [String: Any])
        #expect((aps["alert"] as? [String: String]) == ["title": "In an hour", "body": "Huddle Rovers at 18:00"])
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["badge"] as? Int == 3)
        #expect(json["gameId"] as? String == game.description)
        #expect(json["notificationId"] as? String == notification.id.description)
        #expect(json["category"] as? String == "reminder")
    }
}
