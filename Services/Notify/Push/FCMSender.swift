import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// Sends pushes through FCM's HTTP v1 API (`POST /v1/projects/<project>/messages:send`) with an
/// OAuth2 access token: the notification's title and body, the ids as data, Android priority high
/// for what is urgent, a TTL until the push expires, and the notification's id as collapse key.
struct FCMSender: PushSender {
    let client: HTTPClient
    let token: FCMAccessToken
    let url: String
    let project: String
    let timeout: TimeAmount
    /// The module's clock, from which a push's time to live is counted.
    let now: @Sendable () -> Date

    func send(_ push: OutgoingPush) async -> PushOutcome {
        do {
            let body = try Self.message(push, now: now())
            var outcome = try await post(body, forceNewToken: false)
            // A token FCM no longer takes is renewed once at once; any other answer stands.
            if case .retry(let reason, _) = outcome, reason == "UNAUTHENTICATED" { outcome = try await post(body, forceNewToken: true) }
            return outcome
        } catch {
            return .retry(reason: "FCM unreachable: \(error)", after: nil)
        }
    }

    private func post(_ body: Data, forceNewToken: Bool) async throws -> PushOutcome {
        var request = HTTPClientRequest.toProvider("\(url)/v1/projects/\(project)/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer \(try await token.bearer(force: forceNewToken))")
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: body))
        let response = try await client.callProvider("FCM", "send", request, timeout: timeout)
        let answer = try await response.body.collect(upTo: 64 * 1024)
        let error = (try? JSONDecoder().decode(ErrorAnswer.self, from: answer))?.error
        let code = error?.details?.compactMap(\.errorCode).first ?? error?.status ?? ""
        let retryAfter = response.headers.first(name: "retry-after").flatMap(TimeInterval.init)
        return Self.outcome(status: Int(response.status.code), code: code, retryAfter: retryAfter)
    }

    private struct ErrorAnswer: Decodable {
        struct Body: Decodable {
            let status: String?
            let details: [Detail]?
        }
        struct Detail: Decodable { let errorCode: String? }
        let error: Body
    }

    /// What an FCM answer means (Firebase's FcmError codes).
    static func outcome(status: Int, code: String, retryAfter: TimeInterval?) -> PushOutcome {
        switch (status, code) {
        case (200, _): .delivered
        case (_, "UNREGISTERED"): .tokenInvalid(reason: code)
        case (401, _): .retry(reason: "UNAUTHENTICATED", after: nil)
        case (_, "QUOTA_EXCEEDED"), (_, "UNAVAILABLE"), (_, "INTERNAL"), (429, _), (500...599, _):
            .retry(reason: code.isEmpty ? "HTTP \(status)" : code, after: retryAfter)
        default: .rejected(reason: code.isEmpty ? "HTTP \(status)" : code)
        }
    }

    static func message(_ push: OutgoingPush, now: Date) throws -> Data {
        try HuddleJSON.encoder.encode(FCMMessageBody(push, now: now))
    }
}
