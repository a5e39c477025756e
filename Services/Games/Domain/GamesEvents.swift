import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceHTTP

/// The events games takes from other modules, each handed to the use case it changes. Catalog's keep
/// games in step with its teams: someone who joins a team is
/// invited to its upcoming games, someone who leaves loses the invitations they had not answered,
/// a renamed team is renamed on its games, and a deleted team's upcoming games are cancelled.
/// Purchases' events keep games' copy of the players' entitlements (`Gatekeeper`). A deleted
/// account leaves every roster (the waiting list moves up, as when anyone leaves), its upcoming
/// games are cancelled, and scorecards show a former player in its place.
struct GamesEvents: Sendable {
    /// The name a deleted account's place on scorecards is shown under.
    static let formerPlayer = ShownWords.formerPlayer.english

    let games: Games
    let erasure: any ErasureStore

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        try await Self.handlers.step(for: event)?(self, sql)
    }

    typealias Step = @Sendable (GamesEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(CatalogEvent.membershipChanged) { change, _ in { events, sql in try await events.games.membershipChanged(change, on: sql) } }
        on.on(CatalogEvent.teamUpdated) { changed, _ in
            { events, sql in try await events.games.renameTeam(changed.team.id, to: changed.team.name, on: sql) }
        }
        on.on(CatalogEvent.teamDeleted) { deleted, _ in { events, sql in try await events.games.cancelGames(of: deleted.teamId, on: sql) } }
        on.on(AuthEvent.accountDeleted) { deleted, _ in
            { events, sql in try await events.games.erase(deleted.userId, using: events.erasure, formerPlayer: Self.formerPlayer, on: sql) }
        }
        on.on(ModerationEvent.subjectHidden) { hidden, _ in
            { _, sql in try await HiddenSubjects().apply(hidden, keeping: [.game], on: sql) }
        }
        on.on(PurchasesEvent.entitlementsChanged) { change, _ in
            { events, sql in try await events.games.entitlementsChanged(change, on: sql) }
        }
    }
}
