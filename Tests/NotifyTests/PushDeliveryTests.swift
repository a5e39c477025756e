import Contracts
import Foundation
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import NotifyService

/// Pushes as the stand-in's APNs receives them: over HTTP/2 and TLS, with a provider token it
/// verifies, and its answers acted on.
@Suite(.serialized) struct PushDeliveryTests {
    @Test(arguments: TestStore.all)
    func aNotificationReachesEachIPhoneWithAPNsHeaders(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben")
            let phone = NotifyHarness.apnsToken()
            _ = try await expect(201, harness.register(phone, ana))
            _ = try await expect(204, harness.stack.client(.auth).call(AuthAPI.follow, ana.user.id, token: ben.accessToken))
            let note = try #require(try await harness.inbox(ana, reaching: 1).items.first)
            let push = try #require(try await harness.apnsDeliveries(phone, reaching: 1).first)
            #expect(push.headers["apns-topic"] == "app.huddle.ios")
            #expect(push.headers["apns-push-type"] == "alert")
            #expect(push.headers["apns-priority"] == "10")
            #expect(push.headers["apns-collapse-id"] == note.id.description)
            let expiration = try #require(push.headers["apns-expiration"].flatMap(Double.init))
            #expect(abs(expiration - note.createdAt.addingTimeInterval(86_400).timeIntervalSince1970) < 2)
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(push.payload.utf8)) as? [String: Any])
            #expect(
                (payload["aps"] as? [String: Any])?["alert"] as? [String: String] == ["title": "New follower", "body": "Ben follows you."])
            #expect(payload["userId"] as? String == ben.user.id.description)
            // Sent once: the job is done.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.apnsDeliveries(phone, rejected: true).count == 1)
        }
    }

    @Test func anUnregisteredTokenIsForgottenAndNotPushedAgain() async throws {
        try await NotifyHarness.with { harness in
            let ana = try await harness.player("Ana")
            let phone = NotifyHarness.apnsToken()
            _ = try await expect(201, harness.register(phone, ana))
            _ = try await expect(204, harness.standIn.raw(.POST, "/test/apns/tokens/\(phone)/unregister"))
            let auth = harness.stack.client(.auth)
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: try await harness.player("Ben").accessToken))
            let refused = try await harness.apnsDeliveries(phone, reaching: 1, rejected: true)
            #expect(refused.map(\.status) == [410] && refused.first?.reason == "Unregistered")
            #expect(
                try await eventually {
                    try await expect(200, harness.notify.call(NotifyAPI.devices, token: ana.accessToken)).decode(Page<Device>.self)
                        .items.isEmpty
                })
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: try await harness.player("Cid").accessToken))
            try await harness.inbox(ana, reaching: 2)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.apnsDeliveries(phone, rejected: true).count == 1)
        }
    }

    @Test func aPushForAnotherAppIsRefusedOnceAndNeverRetried() async throws {
        try await NotifyHarness.with { harness in
            let ana = try await harness.player("Ana")
            let phone = NotifyHarness.apnsToken()
            _ = try await expect(
                201,
                harness.notify.call(
                    NotifyAPI.registerDevice,
                    body: RegisterDevice(platform: .apns, token: phone, environment: .production, topic: "com.example.other"),
                    token: ana.accessToken))
            _ = try await expect(
                204, harness.stack.client(.auth).call(AuthAPI.follow, ana.user.id, token: try await harness.player("Ben").accessToken))
            let refused = try await harness.apnsDeliveries(phone, reaching: 1, rejected: true)
            #expect(refused.first?.reason == "DeviceTokenNotForTopic")
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.apnsDeliveries(phone, rejected: true).count == 1)
            // The device stays: the token is fine, the topic was wrong.
            #expect(
                try await expect(200, harness.notify.call(NotifyAPI.devices, token: ana.accessToken)).decode(Page<Device>.self)
                    .items.count == 1)
        }
    }

    @Test(arguments: TestStore.all)
    func anAndroidPhoneGetsItsPushThroughFCMWithOneTokenExchange(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana")
            let phone = "fcm-token:" + UUID().uuidString
            _ = try await expect(201, harness.register(phone, ana, platform: .fcm))
            let auth = harness.stack.client(.auth)
            for name in ["Ben", "Cid"] {
                _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: try await harness.player(name).accessToken))
            }
            let notes = try await harness.inbox(ana, reaching: 2).items
            let pushes = try await harness.fcmDeliveries(phone, reaching: 2)
            let first = try #require(pushes.first)
            #expect(first.headers["android.priority"] == "HIGH")
            #expect(Set(pushes.compactMap { $0.headers["android.collapse_key"] }) == Set(notes.map(\.id.description)))
            let message = try #require(
                (try JSONSerialization.jsonObject(with: Data(first.payload.utf8)) as? [String: Any])?["message"] as? [String: Any])
            #expect(message["token"] as? String == phone)
            #expect((message["data"] as? [String: String])?["category"] == "newFollower")
            // One access token serves both pushes.
            let exchanges = try await expect(200, harness.standIn.raw(.GET, "/test/fcm/token-exchanges")).decode([String: Int].self)
            #expect(exchanges["count"] == 1)
        }
    }

    @Test func anFCMTokenThatIsUnregisteredIsForgotten() async throws {
        try await NotifyHarness.with { harness in
            let ana = try await harness.player("Ana")
            let phone = "fcm-token:" + UUID().uuidString
            _ = try await expect(201, harness.register(phone, ana, platform: .fcm))
            _ = try await expect(204, harness.standIn.raw(.POST, "/test/fcm/tokens/\(phone)/unregister"))
            _ = try await expect(
                204, harness.stack.client(.auth).call(AuthAPI.follow, ana.user.id, token: try await harness.player("Ben").accessToken))
            let refused = try await harness.fcmDeliveries(phone, reaching: 1, rejected: true)
            #expect(refused.first?.status == 404 && refused.first?.reason == "UNREGISTERED")
            #expect(
                try await eventually {
                    try await expect(200, harness.notify.call(NotifyAPI.devices, token: ana.accessToken)).decode(Page<Device>.self)
                        .items.isEmpty
                })
        }
    }

    @Test(
        arguments: [
            (200, "", nil, PushOutcome.delivered),
            (404, "UNREGISTERED", nil, .tokenInvalid(reason: "UNREGISTERED")),
            (429, "QUOTA_EXCEEDED", 30, .retry(reason: "QUOTA_EXCEEDED", after: 30)),
            (503, "UNAVAILABLE", nil, .retry(reason: "UNAVAILABLE", after: nil)),
            (401, "UNAUTHENTICATED", nil, .retry(reason: "UNAUTHENTICATED", after: nil)),
            (400, "INVALID_ARGUMENT", nil, .rejected(reason: "INVALID_ARGUMENT")),
            (403, "SENDER_ID_MISMATCH", nil, .rejected(reason: "SENDER_ID_MISMATCH")),
        ] as [(Int, String, TimeInterval?, PushOutcome)])
    func fcmAnswersMeanWhatFirebaseSays(status: Int, code: String, retryAfter: TimeInterval?, expected: PushOutcome) {
        #expect(FCMSender.outcome(status: status, code: code, retryAfter: retryAfter) == expected)
    }

    @Test func theProviderTokenIsReusedThenRenewed() async throws {
        let clock = SettableClock(Date(timeIntervalSince1970: 1_800_000_000))
        let key = DevelopmentAPNsKey()
        let token = try await APNsToken(
            privateKeyPEM: key.privateKeyPEM, keyID: key.keyID, teamID: key.teamID, renewAfter: 40 * 60, now: { clock.now })
        let first = try await token.bearer()
        clock.advance(by: 39 * 60)
        #expect(try await token.bearer() == first)
        clock.advance(by: 2 * 60)
        let renewed = try await token.bearer()
        #expect(renewed != first)
        let header = try #require(Data(base64URLEncoded: String(first.split(separator: ".")[0])))
        let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
        #expect(fields["alg"] == "ES256" && fields["kid"] == key.keyID)
        let claims = try #require(Data(base64URLEncoded: String(renewed.split(separator: ".")[1])))
        let values = try #require(try JSONSerialization.jsonObject(with: claims) as? [String: Any])
        #expect(values["iss"] as? String == key.teamID)
        // Issued when renewed, in whole seconds.
        let issuedAt = (values["iat"] as? NSNumber)?.int64Value, renewedAt: Int64 = 1_800_000_000 + 41 * 60
        #expect(issuedAt == renewedAt)
    }
}
