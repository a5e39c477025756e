import Contracts
import Foundation

/// What a push service said about one push.
enum PushOutcome: Equatable, Sendable {
    case delivered
    /// Worth trying again later (throttled, the service is down); `after` when the service said.
    case retry(reason: String, after: TimeInterval?)
    /// The token is no longer valid (the app was removed, or it was never a token): forget it.
    case tokenInvalid(reason: String)
    /// This push will never be accepted (wrong topic, too large, not allowed): drop it.
    case rejected(reason: String)
}

/// What the queue does with a job after an attempt. Pure, so its rules are tested on their own.
enum PushDecision: Equatable, Sendable {
    case sent
    case retry(at: Date)
    case drop(reason: String)
    case forgetToken(reason: String)

    /// Retries wait `base × 2^attempts` (capped at `maxDelay`, or what the service asked for), and
    /// stop after `maxAttempts` or once the push has expired.
    static func after(
        _ outcome: PushOutcome, attempts: Int, expiresAt: Date, now: Date, base: TimeInterval, maxDelay: TimeInterval, maxAttempts: Int
    ) -> PushDecision {
        switch outcome {
        case .delivered:
            return .sent
        case .tokenInvalid(let reason):
            return .forgetToken(reason: reason)
        case .rejected(let reason):
            return .drop(reason: reason)
        case .retry(let reason, let asked):
            guard attempts + 1 < maxAttempts else { return .drop(reason: "\(reason); gave up after \(attempts + 1) attempts") }
            let wait = asked ?? min(maxDelay, base * pow(2, Double(attempts)))
            let at = now.addingTimeInterval(wait)
            guard at < expiresAt else { return .drop(reason: "\(reason); expired before the next attempt") }
            return .retry(at: at)
        }
    }
}

/// Sends pushes to one platform's service.
protocol PushSender: Sendable {
    func send(_ push: OutgoingPush) async -> PushOutcome
}

/// A push as the worker hands it to a sender: the job and what its notification says.
struct OutgoingPush: Sendable {
    let job: PushJob
    var notification: PushContent { job.content }
    /// Unread notifications of the recipient, for the app icon's badge.
    let badge: Int?

    /// The lock screen's group: a chat push's room, otherwise its category.
    var thread: String { notification.data.roomId?.description ?? notification.category.rawValue }

    /// What a newer push replaces on the phone: a room's chat pushes replace each other (the latest
    /// tells of the rest); any other push only a repeat of itself.
    var collapseKey: String { notification.data.roomId?.description ?? notification.id.description }
}
