import Contracts
import Foundation
import SQLKit
import ServiceStore

/// When each game's players were last reminded on demand.
protocol RsvpReminderStore: Sendable {
    func lastAsked(_ game: GameID, on sql: any SQLDatabase) async throws -> Date?
    func asked(_ game: GameID, at: Date, on sql: any SQLDatabase) async throws
}

struct SQLRsvpReminderStore: RsvpReminderStore {
    func lastAsked(_ game: GameID, on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column("asked_at").from("rsvp_reminders").where("game_id", .equal, SQLBind(game.description)).first()?
            .decode(column: "asked_at", as: Date.self)
    }

    func asked(_ game: GameID, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "rsvp_reminders").columns("game_id", "asked_at").values(SQLBind(game.description), SQLBind(at))
            .onConflict(with: ["game_id"]) { $0.set(excludedValueOf: "asked_at") }.run()
    }
}
