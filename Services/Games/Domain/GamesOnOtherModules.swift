import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures

/// What catalog's, auth's and purchases' events change in games, as `GamesEvents` hands them on.
extension Games {
    func renameTeam(_ team: TeamID, to name: String, on sql: any SQLDatabase) async throws {
        try await games.renameTeam(team, to: name, on: sql)
    }

    func entitlementsChanged(_ change: PurchasesEvent.EntitlementsChanged, on sql: any SQLDatabase) async throws {
        try await gatekeeper.apply(change, on: sql)
    }

    /// Only joining (a manager's or player's role) and leaving (no role) change a game's roster. A
    /// pending request or an invitation to the team comes before joining, so such an event can only
    /// be older than what games read from catalog when it made the game: acted on as leaving, it took
    /// a member's invitation away until their joining arrived too.
    func membershipChanged(_ change: CatalogEvent.MembershipChanged, on sql: any SQLDatabase) async throws {
        let joined = change.role?.isMember == true, left = change.role == nil
        guard joined || left else { return }
        for id in try await games.upcomingGames(of: change.teamId, now: now(), on: sql) {
            guard let game = try await games.lock(id, viewer: change.userId, on: sql) else { continue }
            switch (joined, game.myStatus) {
            case (true, nil):
                _ = try await apply(.becomes(.invited, substitute: false), to: change.userId, in: game, on: sql)
            case (false, .invited):
                _ = try await apply(.leaves, to: change.userId, in: game, on: sql)
            default:
                break
            }
        }
    }

    func erase(_ user: UserID, using erasure: any ErasureStore, formerPlayer: String, on sql: any SQLDatabase) async throws {
        let now = now()
        for id in try await erasure.games(placing: user, on: sql) {
            guard let game = try await games.lock(id, viewer: user, on: sql) else { continue }
            if game.status == .scheduled, game.startsAt > now {
                _ = try await apply(.leaves, to: user, in: game, on: sql)
            } else {
                try await roster.remove(user, from: id, on: sql)
            }
        }
        try await cancel(try await erasure.upcomingGames(organizedBy: user, now: now, on: sql), on: sql)
        try await erasure.unlinkRounds(of: user, name: formerPlayer, on: sql)
    }

    func cancelGames(of team: TeamID, on sql: any SQLDatabase) async throws {
        try await cancel(try await games.upcomingGames(of: team, now: now(), on: sql), on: sql)
    }

    private func cancel(_ ids: [GameID], on sql: any SQLDatabase) async throws {
        for id in ids {
            guard var game = try await games.lock(id, viewer: nil, on: sql) else { continue }
            game.status = .cancelled
            try await games.update(game, on: sql)
            try await publish(GameEvent.cancelled, id, on: sql)
        }
    }
}
