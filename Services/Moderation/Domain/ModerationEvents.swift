import Contracts
import Foundation
import SQLKit
import ServerContracts

/// The events moderation applies: auth's account deletions. A deleted player's reports keep their
/// content for the audit trail under a pseudonym nothing links back. The open cases about them or
/// their content close with a removal on record (the content went with the account), so their
/// reporters read `actioned` with the action beside it. Every case keeps no name or words of theirs
/// (its content and the context around a message); decisions and their reasons stay, tied to no
/// one. A moderator's role and console sessions go.
struct ModerationEvents: Sendable {
    let store: any CaseStore
    let moderators: any ModeratorStore
    let sessions: any ConsoleSessionStore
    let now: @Sendable () -> Date

    typealias Step = @Sendable (ModerationEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(AuthEvent.accountDeleted) { deleted, _ in { events, sql in try await events.erase(deleted.userId, on: sql) } }
    }

    /// Who the removal of a deleted account's reported content is recorded as made by: no
    /// moderator, the deletion itself (00000000-0000-5000-8000-00000000de1e).
    static let accountDeletion = UserID(
        UUID(uuid: (0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xde, 0x1e)))

    /// What a case shows where a deleted player's words were.
    static let erasedText = "(erased with the account that wrote it)"

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await store.reassignReports(of: user, to: UserID(), on: sql)
        try await moderators.revoke(user, on: sql)
        try await sessions.deleteAll(of: user, on: sql)
        let at = now()
        for id in try await store.openCases(ownedBy: user, on: sql) where try await store.close(id, at: at, on: sql) {
            let removal = CaseAction(
                caseId: id, action: .remove, reason: "The account was deleted, and this content with it.", until: nil,
                moderatorId: Self.accountDeletion, at: at)
            try await store.record(removal, ownerID: nil, on: sql)
            try await store.decideReports(in: id, as: .actioned, at: at, on: sql)
        }
        for stored in try await store.cases(mentioning: user, on: sql) {
            let content = Self.erasing(user, from: stored.content), context = stored.context?.map { Self.erasing(user, from: $0) }
            guard content != stored.content || context != stored.context else { continue }
            try await store.redact(stored.id, content: content, context: context, on: sql)
        }
        try await store.forgetOwner(user, on: sql)
    }

    /// `content` without `user`'s name and words, when they are its owner.
    static func erasing(_ user: UserID, from content: SubjectContent) -> SubjectContent {
        guard content.ownerId == user else { return content }
        var erased = content
        erased.ownerId = nil
        erased.ownerName = nil
        erased.text = erasedText
        return erased
    }
}
