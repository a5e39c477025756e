import Contracts
import Foundation
import SQLKit
import ServiceStore

/// What other services' events said about people, teams and games: the names a notification's text
/// needs and who manages or organises what.
protocol DirectoryStore: Sendable {
    func setName(_ name: String, of user: UserID, on sql: any SQLDatabase) async throws
    /// The name and language a profile event gives (a language not set leaves the one known).
    func setProfile(name: String, locale: String?, of user: UserID, on sql: any SQLDatabase) async throws
    func name(of user: UserID, on sql: any SQLDatabase) async throws -> String?
    /// The language each of `users` reads; English for one who chose none.
    func languages(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: Language]
    func saveTeam(_ id: TeamID, name: String, manager: UserID, on sql: any SQLDatabase) async throws
    func removeTeam(_ id: TeamID, on sql: any SQLDatabase) async throws
    func team(_ id: TeamID, on sql: any SQLDatabase) async throws -> (name: String, manager: UserID)?
    func saveGame(_ game: Game, on sql: any SQLDatabase) async throws
    func games(_ ids: Set<GameID>, on sql: any SQLDatabase) async throws -> [GameID: KnownGame]
}

extension DirectoryStore {
    func game(_ id: GameID, on sql: any SQLDatabase) async throws -> KnownGame? {
        try await games([id], on: sql)[id]
    }
}

/// What notify knows of a game: enough to name it, find its organiser and time its reminders.
struct KnownGame: Equatable, Sendable {
    var name: String
    var organizer: UserID
    var startsAt: Date
    var timeZone: String?
    var location: Location? = nil
}

struct SQLDirectoryStore: DirectoryStore {
    func setName(_ name: String, of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "people").columns("user_id", "name").values(SQLBind(user.description), SQLBind(name))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "name") }.run()
    }

    func setProfile(name: String, locale: String?, of user: UserID, on sql: any SQLDatabase) async throws {
        guard let locale else { return try await setName(name, of: user, on: sql) }
        try await sql.insert(into: "people").columns("user_id", "name", "locale")
            .values(SQLBind(user.description), SQLBind(name), SQLBind(locale))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "name").set(excludedValueOf: "locale") }.run()
    }

    func languages(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: Language] {
        var found: [UserID: Language] = [:]
        for slice in users.statementSlices() {
            let rows = try await sql.select().columns("user_id", "locale").from("people")
                .where(SQLInList("user_id", slice.map(\.description))).where("locale", .isNot, SQLLiteral.null).all()
            for row in rows { found[try row.typedID("user_id")] = Language(tag: try row.decode(column: "locale", as: String?.self)) }
        }
        return found
    }

    func name(of user: UserID, on sql: any SQLDatabase) async throws -> String? {
        try await sql.select().column("name").from("people").where("user_id", .equal, SQLBind(user.description)).first()?
            .decode(column: "name", as: String.self)
    }

    func saveTeam(_ id: TeamID, name: String, manager: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "teams").columns("team_id", "name", "manager_id")
            .values(SQLBind(id.description), SQLBind(name), SQLBind(manager.description))
            .onConflict(with: ["team_id"]) { $0.set(excludedValueOf: "name").set(excludedValueOf: "manager_id") }.run()
    }

    func removeTeam(_ id: TeamID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "teams").where("team_id", .equal, SQLBind(id.description)).run()
    }

    func team(_ id: TeamID, on sql: any SQLDatabase) async throws -> (name: String, manager: UserID)? {
        guard
            let row = try await sql.select().columns("name", "manager_id").from("teams").where("team_id", .equal, SQLBind(id.description))
                .first()
        else { return nil }
        return (try row.decode(column: "name", as: String.self), try row.typedID("manager_id"))
    }

    func saveGame(_ game: Game, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "games").columns("game_id", "name", "organizer_id", "starts_at", "time_zone", "location")
            .values(
                SQLBind(game.id.description), SQLBind(game.displayName), SQLBind(game.organizerId.description), SQLBind(game.startsAt),
                SQLBind(game.timeZone), SQLBind(try game.location.map(StoredJSON.text))
            )
            .onConflict(with: ["game_id"]) {
                $0.set(excludedValueOf: "name").set(excludedValueOf: "organizer_id").set(excludedValueOf: "starts_at")
                    .set(excludedValueOf: "time_zone").set(excludedValueOf: "location")
            }
            .run()
    }

    func games(_ ids: Set<GameID>, on sql: any SQLDatabase) async throws -> [GameID: KnownGame] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await sql.select().columns("game_id", "name", "organizer_id", "starts_at", "time_zone", "location").from("games")
            .where("game_id", .in, SQLBind.group(ids.map(\.description))).all()
        return try Dictionary(
            uniqueKeysWithValues: rows.map { row in
                (
                    try row.typedID("game_id"),
                    KnownGame(
                        name: try row.decode(column: "name", as: String.self), organizer: try row.typedID("organizer_id"),
                        startsAt: try row.decode(column: "starts_at", as: Date.self),
                        timeZone: try row.decode(column: "time_zone", as: String?.self),
                        location: try row.json("location", as: Location.self))
                )
            })
    }
}
