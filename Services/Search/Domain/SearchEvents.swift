import Contracts
import SQLKit
import ServerContracts

/// The events search takes from other modules, each made the change to its index that `Indexer` folds.
enum SearchEvents {
    static let handlers = EventHandlers<IndexChange> { on in
        on.on(GameEvent.created, GameEvent.updated, GameEvent.cancelled, reading: ChangedGame.self) { changed, event in
            try ChangedGame.document(from: event, columns: changed.game).map(IndexChange.set) ?? .ignored
        }
        on.on(GameEvent.rosterChanged) { change, _ in .rosterCounts(change) }
        on.on(GameEvent.needsPlayersChanged) { change, _ in .subsNeeded(change) }
        on.on(CatalogEvent.teamCreated, CatalogEvent.teamUpdated) { changed, _ in
            try Indexer.document(for: changed.team).map(IndexChange.set) ?? .ignored
        }
        on.on(CatalogEvent.membershipChanged) { change, _ in .memberCount(change) }
        on.on(CatalogEvent.teamDeleted) { deleted, _ in .delete(.team, id: deleted.teamId.description) }
        on.on(CatalogEvent.courseChanged) { changed, _ in .set(try Indexer.document(for: changed.course)) }
        on.on(CatalogEvent.courseDeleted) { deleted, _ in .delete(.course, id: deleted.courseId.description) }
        on.on(CatalogEvent.venueChanged) { changed, _ in .set(try Indexer.document(for: changed.venue)) }
        on.on(AuthEvent.profileChanged) { changed, _ in .player(PlayerResult(id: changed.profile.id, name: changed.profile.name)) }
        on.on(PurchasesEvent.entitlementsChanged) { change, _ in .entitlements(change) }
        on.on(AuthEvent.accountDeleted) { deleted, _ in .removePlayer(deleted.userId) }
        on.on(ModerationEvent.subjectHidden) { hidden, _ in .hidden(hidden) }
    }
}
