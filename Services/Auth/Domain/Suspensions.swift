import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts

/// Moderators' suspensions and bans as auth carries them out: from `moderation.case.decided`, every
/// session of the player ends (the other modules' revocation polls refuse their tokens within a poll)
/// and signing in or refreshing answers 403 `ACCOUNT_SUSPENDED` with the end, until it passes.
struct Suspensions: Sendable {
    let store: any SuspensionStore
    let sessions: any SessionStore
    let logger: Logger
    let now: @Sendable () -> Date

    typealias Step = @Sendable (Suspensions, any SQLDatabase) async throws -> Void

    func apply(_ decided: ModerationEvent.CaseDecided, on sql: any SQLDatabase) async throws {
        guard let owner = decided.ownerId, decided.action == .suspend || decided.action == .ban else { return }
        let until = decided.action == .ban ? nil : decided.until
        try await store.suspend(owner, until: until, reason: decided.reason, case: decided.caseId, at: now(), on: sql)
        let ended = try await sessions.revokeAll(of: owner, at: now(), on: sql)
        logger.notice(
            "\(owner) \(decided.action == .ban ? "banned" : "suspended") by case \(decided.caseId); \(ended.count) sessions ended")
    }

    /// Throws `ACCOUNT_SUSPENDED` while `user` is suspended or banned.
    func refuseIfSuspended(_ user: UserID, on sql: any SQLDatabase) async throws {
        if let until = try await store.suspension(of: user, now: now(), on: sql) { throw AuthError.accountSuspended(until: until) }
    }
}
