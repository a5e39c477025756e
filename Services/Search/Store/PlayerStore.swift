import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Players by name: candidates from a trigram index (SQLite FTS5 `trigram`, PostgreSQL `pg_trgm`),
/// ranked by `NameMatch`.
protocol PlayerStore: Sendable {
    func upsert(_ player: PlayerResult, on sql: any SQLDatabase) async throws
    func delete(_ player: UserID, on sql: any SQLDatabase) async throws
    /// Players whose name shares a prefix or some trigrams with `text` (lower-cased).
    func candidates(matching text: String, limit: Int, on sql: any SQLDatabase) async throws -> [PlayerResult]
}

struct SQLPlayerStore: PlayerStore {
    let kind: Database.Kind

    func upsert(_ player: PlayerResult, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "players").columns("id", "name", "name_key")
            .values(SQLBind(player.id.description), SQLBind(player.name), SQLBind(NameMatch.key(player.name)))
            .onConflict(with: ["id"]) { $0.set(excludedValueOf: "name").set(excludedValueOf: "name_key") }
            .run()
    }

    func delete(_ player: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "players").where("id", .equal, SQLBind(player.description)).run()
    }

    func candidates(matching text: String, limit: Int, on sql: any SQLDatabase) async throws -> [PlayerResult] {
        let key = NameMatch.key(text)
        let rows: [any SQLRow]
        switch kind {
        case .sqlite:
            let trigrams = NameMatch.trigrams(key)
            if trigrams.isEmpty {
                rows = try await sql.select().columns("id", "name").from("players")
                    .where(
                        SQLFunction("substr", args: SQLColumn("name_key"), SQLLiteral.numeric("1"), SQLBind(key.count)), .equal,
                        SQLBind(key)
                    )
                    .limit(limit).all()
            } else {
                // Each trigram quoted as an FTS5 string: the user's text never becomes query syntax.
                let match = trigrams.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " OR ")
                rows = try await sql.raw(
                    """
                    SELECT players.id, players.name FROM players_fts JOIN players ON players.rid = players_fts.rowid
                    WHERE players_fts MATCH \(bind: match) ORDER BY bm25(players_fts) LIMIT \(bind: limit)
                    """
                ).all()
            }
        case .postgres:
            rows = try await sql.raw(
                """
                SELECT id, name FROM players
                WHERE name_key LIKE \(bind: NameMatch.likePrefix(key)) ESCAPE '\\' OR name_key % \(bind: key)
                ORDER BY similarity(name_key, \(bind: key)) DESC LIMIT \(bind: limit)
                """
            ).all()
        }
        return try rows.map { PlayerResult(id: try $0.typedID("id"), name: try $0.decode(column: "name", as: String.self)) }
    }
}
