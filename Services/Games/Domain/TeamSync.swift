import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures

/// Keeps games in step with catalog's teams through its events: someone who joins a team is
/// invited to its upcoming games, someone who leaves loses the invitations they had not answered,
/// a renamed team is renamed on its games, and a deleted team's upcoming games are cancelled.
/// Purchases' events keep games' copy of the players' entitlements (`Gatekeeper`). A deleted
/// account leaves every roster (the waiting list moves up, as when anyone leaves), its upcoming
/// games are cancelled, and scorecards show a former player in its place.
struct TeamSync: Sendable {
    /// The name a deleted account's place on scorecards is shown under.
    static let formerPlayer = "Former player"

    let games: Games
    let erasure: any ErasureStore
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        try await Self.handlers.step(for: event)?(self, sql)
    }

    typealias Step = @Sendable (TeamSync, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(CatalogEvent.membershipChanged) { change, _ in { sync, sql in try await sync.membershipChanged(change, on: sql) } }
        on.on(CatalogEvent.teamUpdated) { changed, _ in
            { sync, sql in try await sync.games.games.renameTeam(changed.team.id, to: changed.team.name, on: sql) }
        }
        on.on(CatalogEvent.teamDeleted) { deleted, _ in { sync, sql in try await sync.cancelGames(of: deleted.teamId, on: sql) } }
        on.on(AuthEvent.accountDeleted) { deleted, _ in { sync, sql in try await sync.erase(deleted.userId, on: sql) } }
        on.on(ModerationEvent.subjectHidden) { hidden, _ in
            { _, sql in try await HiddenSubjects().apply(hidden, keeping: [.game], on: sql) }
        }
        on.on(PurchasesEvent.entitlementsChanged) { change, _ in { sync, sql in try await sync.games.gatekeeper.apply(change, on: sql) } }
    }

    /// Only joining (a manager's or player's role) and leaving (no role) change a game's roster. A
    /// pending request or an invitation to the team comes before joining, so such an event can only
    /// be older than what games read from catalog when it made the game: acted on as leaving, it took
    /// a member's invitation away until their joining arrived too.
    private func membershipChanged(_ change: CatalogEvent.MembershipChanged, on sql: any SQLDatabase) async throws {
        let joined = change.role?.isMember == true, left = change.role == nil
        guard joined || left else { return }
        for id in try await games.games.upcomingGames(of: change.teamId, now: now(), on: sql) {
            guard let game = try await games.games.lock(id, viewer: change.userId, on: sql) else { continue }
            switch (joined, game.myStatus) {
            case (true, nil):
                _ = try await games.apply(.becomes(.invited, substitute: false), to: change.userId, in: game, on: sql)
            case (false, .invited):
                _ = try await games.apply(.leaves, to: change.userId, in: game, on: sql)
            default:
                break
            }
        }
    }

    private func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        let now = now()
        for id in try await erasure.games(placing: user, on: sql) {
            guard let game = try await games.games.lock(id, viewer: user, on: sql) else { continue }
            if game.status == .scheduled, game.startsAt > now {
                _ = try await games.apply(.leaves, to: user, in: game, on: sql)
            } else {
                try await games.roster.remove(user, from: id, on: sql)
            }
        }
        try await cancel(try await erasure.upcomingGames(organizedBy: user, now: now, on: sql), on: sql)
        try await erasure.unlinkRounds(of: user, name: Self.formerPlayer, on: sql)
    }

    private func cancelGames(of team: TeamID, on sql: any SQLDatabase) async throws {
        try await cancel(try await games.games.upcomingGames(of: team, now: now(), on: sql), on: sql)
    }

    private func cancel(_ ids: [GameID], on sql: any SQLDatabase) async throws {
        for id in ids {
            guard var game = try await games.games.lock(id, viewer: nil, on: sql) else { continue }
            game.status = .cancelled
            try await games.games.update(game, on: sql)
            try await games.publish(GameEvent.cancelled, id, on: sql)
        }
    }
}
