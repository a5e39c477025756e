import Contracts
import Foundation
import SQLKit
import ServiceKit

/// The events moderation applies: auth's account deletions. A deleted player's reports keep their
/// content for the audit trail under a pseudonym nothing links back, and the open cases about them
/// or their content close, their reports counted as acted on (the content went with the account); a
/// moderator's role and console sessions go.
struct ModerationEvents: Sendable {
    let store: any CaseStore
    let moderators: any ModeratorStore
    let sessions: any ConsoleSessionStore
    let now: @Sendable () -> Date

    typealias Step = @Sendable (ModerationEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(AuthEvent.accountDeleted) { deleted, _ in { events, sql in try await events.erase(deleted.userId, on: sql) } }
    }

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await store.reassignReports(of: user, to: UserID(), on: sql)
        try await moderators.revoke(user, on: sql)
        try await sessions.deleteAll(of: user, on: sql)
        let at = now()
        for id in try await store.openCases(ownedBy: user, on: sql) where try await store.close(id, at: at, on: sql) {
            try await store.decideReports(in: id, as: .actioned, at: at, on: sql)
        }
    }
}
