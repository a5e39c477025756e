import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// Sends pushes to APNs over HTTP/2 with token authentication (Apple's "Sending notification
/// requests to APNs"): `POST /3/device/<token>` on the device's environment's host, with
/// `apns-topic`, `apns-push-type: alert`, `apns-priority` (10 now, 5 when it can wait),
/// `apns-expiration`, and `apns-collapse-id` (`OutgoingPush.collapseKey`: the notification's id, so a
/// rare repeat collapses on the phone; a chat push's room, so the room shows its latest push).
struct APNsSender: PushSender {
    let client: HTTPClient
    let token: APNsToken
    let productionURL: String
    let sandboxURL: String
    let timeout: TimeAmount
    let logger: Logger

    /// Apple refuses a payload above 4 KB.
    static let maxPayload = 4096

    func send(_ push: OutgoingPush) async -> PushOutcome {
        do {
            let body = try Self.payload(push)
            guard body.count <= Self.maxPayload else { return .rejected(reason: "PayloadTooLarge (\(body.count) bytes)") }
            var outcome = try await post(push, body: body, forceNewToken: false)
            // An expired provider token is renewed once at once; any other answer stands.
            if case .retry(let reason, _) = outcome, reason == "ExpiredProviderToken" {
                outcome = try await post(push, body: body, forceNewToken: true)
            }
            return outcome
        } catch {
            return .retry(reason: "APNs unreachable: \(error)", after: nil)
        }
    }

    private func post(_ push: OutgoingPush, body: Data, forceNewToken: Bool) async throws -> PushOutcome {
        let host = push.job.device.environment == .sandbox ? sandboxURL : productionURL
        var request = HTTPClientRequest.toProvider("\(host)/3/device/\(push.job.device.token)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try await token.bearer(force: forceNewToken))")
        request.headers.add(name: "apns-topic", value: push.job.device.topic ?? "")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: push.job.urgent ? "10" : "5")
        request.headers.add(name: "apns-expiration", value: String(Int(push.job.expiresAt.timeIntervalSince1970)))
        request.headers.add(name: "apns-collapse-id", value: push.collapseKey)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: body))
        let response = try await client.callProvider("APNs", "push", request, timeout: timeout)
        let answer = try await response.body.collect(upTo: 64 * 1024)
        let reason = (try? HuddleJSON.decoder.decode(Reason.self, from: answer))?.reason ?? ""
        return Self.outcome(status: Int(response.status.code), reason: reason)
    }

    private struct Reason: Decodable { let reason: String }

    /// What an APNs answer means (Apple's table of status codes and reasons).
    static func outcome(status: Int, reason: String) -> PushOutcome {
        switch (status, reason) {
        case (200, _): .delivered
        case (410, _), (400, "BadDeviceToken"): .tokenInvalid(reason: reason.isEmpty ? "Unregistered" : reason)
        case (403, "ExpiredProviderToken"): .retry(reason: reason, after: nil)
        case (429, _), (500...599, _): .retry(reason: reason.isEmpty ? "HTTP \(status)" : reason, after: nil)
        default: .rejected(reason: reason.isEmpty ? "HTTP \(status)" : reason)
        }
    }

    static func payload(_ push: OutgoingPush) throws -> Data {
        try HuddleJSON.encoder.encode(APNsPayload(push))
    }
}
