import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// Statements written without escaping identifiers are the statements SQLKit writes.
@Suite("Statement text")
struct StatementTextTests {
    /// Only a dialect, to write statements for PostgreSQL without a server.
    struct PostgresForWriting: SQLDatabase {
        var logger: Logger { Logger(label: "statement-text") }
        var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
        var version: (any SQLDatabaseReportedVersion)? { nil }
        var dialect: any SQLDialect { PostgresDialect() }

        func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
            eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
    }

    /// Statements of the shapes the stores write: columns of a table, joins, filters with binds,
    /// upserts, returning, grouping, ordering and paging, a subquery and raw SQL naming identifiers.
    static func statements(_ sql: any SQLDatabase) throws -> [any SQLExpression] {
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        return [
            sql.select().columns(["id", "doc", "lat"].map { SQLColumn($0, table: "places") }).from("places")
                .join("places_at", on: SQLColumn("id", table: "places_at"), .equal, SQLColumn("id", table: "places"))
                .where("sport", .equal, SQLBind("hockey")).where("starts_at", .greaterThan, SQLBind(since))
                .where { $0.where("privacy", .equal, SQLBind(0)).orWhere("privacy", .is, SQLLiteral.null) }
                .orderBy("starts_at").limit(20).query,
            try sql.insert(into: "games").columns("id", "name", "version").values(SQLBind("g1"), SQLBind("Sunday"), SQLBind(3))
                .onConflict(with: ["id"]) { try $0.set(excludedValueOf: "name").set(excludedValueOf: "version") }.query,
            sql.update("wallets").set("balance", to: SQLBinaryExpression(SQLColumn("balance"), .add, SQLBind(250)))
                .where("user_id", .equal, SQLBind("u1")).returning("balance").query,
            sql.delete(from: "sessions").where("expires_at", .lessThan, SQLBind(since)).returning("id").query,
            sql.select().column("team_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "members").from("memberships")
                .where("team_id", .in, sql.select().column("id").from("teams").where("league_id", .equal, SQLBind("l1")).query)
                .groupBy("team_id").query,
            SQLQueryString("SELECT \(ident: "doc") FROM \(ident: "places") WHERE \(ident: "id") = \(bind: "p1")"),
        ]
    }

    static func databases() async throws -> [(name: String, sql: any SQLDatabase, close: () async throws -> Void)] {
        let sqlite = try await SQLiteConnection.open(storage: .memory)
        return [("SQLite", sqlite.sql(), { try await sqlite.close() }), ("PostgreSQL", PostgresForWriting(), {})]
    }

    @Test("every statement is written without escaping, and as SQLKit writes it, with the same binds")
    func sameTextAndBinds() async throws {
        for database in try await Self.databases() {
            for statement in try Self.statements(database.sql) {
                let kit = database.sql.serialize(statement)
                let written = try #require(StatementText.unescaped(statement, for: database.sql), "\(database.name): \(kit.sql)")
                #expect(written.sql == kit.sql, "\(database.name)")
                #expect(written.binds.map { "\($0)" } == kit.binds.map { "\($0)" }, "\(database.name): \(kit.sql)")
                #expect(StatementText.of(statement, for: database.sql).sql == kit.sql)
            }
            try await database.close()
        }
    }

    @Test("an identifier with a quote in it, or raw SQL quoting its own, is written SQLKit's way, escaped")
    func quotesGoSQLKitsWay() async throws {
        for database in try await Self.databases() {
            let odd = database.sql.select().column(SQLColumn("say \"hi\"", table: "notes")).from("notes").query
            #expect(StatementText.unescaped(odd, for: database.sql) == nil)
            #expect(StatementText.of(odd, for: database.sql).sql == database.sql.serialize(odd).sql)
            #expect(StatementText.of(odd, for: database.sql).sql.contains("\"say \"\"hi\"\"\""))
            let raw = SQLQueryString("SELECT \"id\" FROM \(ident: "notes")")
            #expect(StatementText.unescaped(raw, for: database.sql) == nil)
            #expect(StatementText.of(raw, for: database.sql).sql == "SELECT \"id\" FROM \"notes\"")
            try await database.close()
        }
    }
}
