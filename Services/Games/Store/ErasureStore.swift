import Contracts
import Foundation
import SQLKit
import ServiceStore

/// What games holds of a deleted account beyond its games' rosters: where it stands, what it
/// organises, and its name on round scorecards.
protocol ErasureStore: Sendable {
    /// Every game `user` has a roster place in.
    func games(placing user: UserID, on sql: any SQLDatabase) async throws -> [GameID]
    /// Scheduled games `user` organises that have not started.
    func upcomingGames(organizedBy user: UserID, now: Date, on sql: any SQLDatabase) async throws -> [GameID]
    /// Shows `user` on every scorecard as `name`, linked to no account.
    func unlinkRounds(of user: UserID, name: String, on sql: any SQLDatabase) async throws
}

struct SQLErasureStore: ErasureStore {
    func games(placing user: UserID, on sql: any SQLDatabase) async throws -> [GameID] {
        try await sql.select().column("game_id").from("roster").where("user_id", .equal, SQLBind(user.description)).all()
            .map { try $0.typedID("game_id") }
    }

    func upcomingGames(organizedBy user: UserID, now: Date, on sql: any SQLDatabase) async throws -> [GameID] {
        try await sql.select().column("id").from("games").where("organizer_id", .equal, SQLBind(user.description))
            .where("status", .equal, SQLBind(GameStatus.scheduled.rawValue)).where("starts_at", .greaterThan, SQLBind(now))
            .all().map { try $0.typedID("id") }
    }

    func unlinkRounds(of user: UserID, name: String, on sql: any SQLDatabase) async throws {
        try await sql.update("round_players").set("name", to: SQLBind(name)).set("user_id", to: SQLLiteral.null)
            .where("user_id", .equal, SQLBind(user.description)).run()
    }
}
