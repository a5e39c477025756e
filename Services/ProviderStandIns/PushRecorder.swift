public import Foundation
import HuddleEffects
import NIOConcurrencyHelpers

/// What the push stand-ins accepted and refused, for tests and for a developer to look at, and the
/// tokens made to answer "unregistered".
public final class PushRecorder: Sendable {
    public struct Attempt: Codable, Sendable, Equatable {
        public var token: String
        public var headers: [String: String]
        public var payload: String
        /// The status answered: 200 for an accepted push.
        public var status: Int
        public var reason: String?
        /// When the stand-in received it.
        public var receivedAt: Date?
    }

    private struct State {
        var attempts: [String: [Attempt]] = [:]
        /// Per service, how many tokens have had an attempt.
        var tokens: [String: Int] = [:]
        var unregistered: Set<String> = []
    }
    private let state = NIOLockedValueBox(State())

    public init() {}

    func record(_ attempt: Attempt, service: String) {
        var attempt = attempt
        attempt.receivedAt = Effects.system.now()
        state.withLockedValue { [attempt] state in
            let key = "\(service)/\(attempt.token)"
            if state.attempts[key] == nil { state.tokens[service, default: 0] += 1 }
            state.attempts[key, default: []].append(attempt)
        }
    }

    /// How many tokens have had an attempt at `service`: cheap to ask often, where `attempts`
    /// copies every attempt.
    public func tokenCount(service: String) -> Int { state.withLockedValue { $0.tokens[service] ?? 0 } }

    /// Every attempt at `service` ("apns" or "fcm"), by token.
    public func attempts(service: String) -> [String: [Attempt]] {
        let prefix = "\(service)/"
        return state.withLockedValue { state in
            Dictionary(
                uniqueKeysWithValues: state.attempts.filter { $0.key.hasPrefix(prefix) }.map {
                    (String($0.key.dropFirst(prefix.count)), $0.value)
                })
        }
    }

    /// The accepted pushes to `token` (and the refused ones with `includeRejected`), oldest first.
    func attempts(service: String, token: String, includeRejected: Bool) -> [Attempt] {
        let all = state.withLockedValue { $0.attempts["\(service)/\(token)"] ?? [] }
        return includeRejected ? all : all.filter { $0.status == 200 }
    }

    func unregister(_ token: String) { _ = state.withLockedValue { $0.unregistered.insert(token) } }
    func isUnregistered(_ token: String) -> Bool { state.withLockedValue { $0.unregistered.contains(token) } }
}
