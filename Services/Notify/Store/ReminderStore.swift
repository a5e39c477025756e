import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A reminder due for one player of one game: at most one per game, player and kind.
struct Reminder: Equatable, Sendable {
    var game: GameID
    var user: UserID
    var kind: ReminderSchedule.Kind
    var dueAt: Date
}

/// The reminder queue: a row per game, player and kind (unique), pending until it fires or is
/// cancelled. Workers claim due rows with `FOR UPDATE SKIP LOCKED` on PostgreSQL and fire them in
/// the same transaction that marks them sent, so each fires once across workers, replicas and kills.
protocol ReminderStore: Sendable {
    /// Schedules or moves the player's reminders of the game to `due` (kinds absent are cancelled).
    func schedule(_ game: GameID, _ user: UserID, due: [ReminderSchedule.Kind: Date], on sql: any SQLDatabase) async throws
    /// Cancels the pending reminders of the game (of one player when `user` is given).
    func cancel(_ game: GameID, user: UserID?, on sql: any SQLDatabase) async throws
    /// The players with reminders of the game (pending or sent), and whether they had answered (no reminder to).
    func players(of game: GameID, on sql: any SQLDatabase) async throws -> [UserID: Bool]
    /// When the soonest pending reminder is due.
    func nextDue(on sql: any SQLDatabase) async throws -> Date?
    /// Up to `limit` due reminders, locked for this transaction and marked sent.
    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [Reminder]
}

struct SQLReminderStore: ReminderStore {
    let kind: Database.Kind

    func schedule(_ game: GameID, _ user: UserID, due: [ReminderSchedule.Kind: Date], on sql: any SQLDatabase) async throws {
        for reminderKind in ReminderSchedule.Kind.allCases {
            guard let at = due[reminderKind] else {
                try await sql.update("reminders").set("state", to: SQLBind("cancelled")).where("game_id", .equal, SQLBind(game.description))
                    .where("user_id", .equal, SQLBind(user.description)).where("kind", .equal, SQLBind(reminderKind.rawValue))
                    .where("state", .equal, SQLBind("pending")).run()
                continue
            }
            // A reminder already sent stays sent, unless the game moved after it went out.
            try await sql.insert(into: "reminders").columns("game_id", "user_id", "kind", "due_at", "state")
                .values(
                    SQLBind(game.description), SQLBind(user.description), SQLBind(reminderKind.rawValue), SQLBind(at), SQLBind("pending")
                )
                .onConflict(with: ["game_id", "user_id", "kind"]) { conflict in
                    conflict.set("due_at", to: SQLBind(at)).set("state", to: SQLBind("pending"))
                        .where(SQLColumn("due_at", table: "reminders"), .notEqual, SQLBind(at))
                        .orWhere(SQLColumn("state", table: "reminders"), .equal, SQLBind("cancelled"))
                }
                .run()
        }
    }

    func cancel(_ game: GameID, user: UserID?, on sql: any SQLDatabase) async throws {
        var update = sql.update("reminders").set("state", to: SQLBind("cancelled")).where("game_id", .equal, SQLBind(game.description))
            .where("state", .equal, SQLBind("pending"))
        if let user { update = update.where("user_id", .equal, SQLBind(user.description)) }
        try await update.run()
    }

    func players(of game: GameID, on sql: any SQLDatabase) async throws -> [UserID: Bool] {
        var answered: [UserID: Bool] = [:]
        let rows = try await sql.select().columns("user_id", "kind").from("reminders").where("game_id", .equal, SQLBind(game.description))
            .where("state", .notEqual, SQLBind("cancelled")).all()
        for row in rows {
            let user: UserID = try row.typedID("user_id")
            let asks = try row.decode(column: "kind", as: String.self) == ReminderSchedule.Kind.answer.rawValue
            answered[user] = (answered[user] ?? true) && !asks
        }
        return answered
    }

    func nextDue(on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column(SQLFunction("MIN", args: SQLColumn("due_at")), as: "due").from("reminders")
            .where("state", .equal, SQLBind("pending")).first()?.decode(column: "due", as: Date?.self)
    }

    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [Reminder] {
        // One statement chooses the due rows, locks them (skipping those another worker holds) and
        // marks them sent: a batch of 500 costs one round trip, not 501.
        let due = SQLSubquery.select { due in
            let chosen = due.columns("game_id", "user_id", "kind").from("reminders").where("state", .equal, SQLBind("pending"))
                .where("due_at", .lessThanOrEqual, SQLBind(now)).orderBy("due_at").limit(limit)
            // SQLite has one writer at a time, and the transaction around this is it.
            return kind == .postgres ? chosen.lockingClause(SQLRaw("FOR UPDATE SKIP LOCKED")) : chosen
        }
        let key = SQLGroupExpression([SQLColumn("game_id"), SQLColumn("user_id"), SQLColumn("kind")])
        return try await sql.update("reminders").set("state", to: SQLBind("sent")).set("sent_at", to: SQLBind(now))
            .where(key, .in, due).returning("game_id", "user_id", "kind", "due_at").all()
            .map { row in
                Reminder(
                    game: try row.typedID("game_id"), user: try row.typedID("user_id"), kind: try row.enumValue("kind"),
                    dueAt: try row.decode(column: "due_at", as: Date.self))
            }
            .sorted { $0.dueAt < $1.dueAt }
    }
}
