import Foundation
public import Logging
import NIOConcurrencyHelpers
import SQLKit

/// One step of a service's schema. Versions increase; an applied version is never changed,
/// only followed by a new one.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    /// DDL for the given dialect, run in one transaction together with the bookkeeping row.
    public let statements: @Sendable (Database.Kind) -> [String]

    public init(version: Int, name: String, statements: @escaping @Sendable (Database.Kind) -> [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}

extension Database {
    /// Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction.
    /// On PostgreSQL every transaction here first takes an advisory lock, the bookkeeping table's
    /// creation included, so replicas starting together never race.
    public func migrate(_ migrations: [Migration], logger: Logger) async throws {
        try await checkReachable()
        let kind = self.kind
        try await transaction { sql in
            if kind == .postgres { try await sql.raw("SELECT pg_advisory_xact_lock(727274)").run() }
            try await sql.raw(
                SQLQueryString(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at \(kind.timestamp) NOT NULL)"
                )
            ).run()
        }
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            let applied = try await transaction { sql -> Bool in
                if kind == .postgres {
                    try await sql.raw("SELECT pg_advisory_xact_lock(727274)").run()
                }
                let existing = try await sql.select().column("version").from("schema_migrations")
                    .where("version", .equal, migration.version).first()
                guard existing == nil else { return false }
                // Said before it runs: a migration over a large table can take minutes of the start.
                logger.info("applying migration \(migration.version) \(migration.name)")
                for statement in migration.statements(kind) {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.insert(into: "schema_migrations")
                    .columns("version", "name", "applied_at")
                    .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(now()))
                    .run()
                return true
            }
            if applied { logger.info("applied migration \(migration.version) \(migration.name)") }
        }
        self.migrated.withLockedValue { $0 = true }
    }

    /// Waits, checking every `interval`, until the store holds every one of `migrations`, applied by
    /// another process (`<module> --migrate`); the module is not ready meanwhile.
    public func waitForMigrations(_ migrations: [Migration], logger: Logger, interval: Duration = .seconds(2)) async throws {
        try await checkReachable()
        let needed = Set(migrations.map(\.version))
        var told = false
        while true {
            // No table yet reads as nothing applied; so does a moment without the database, which the
            // next look may find again.
            let applied =
                (try? await read { sql in
                    Set(
                        try await sql.raw("SELECT version FROM schema_migrations").all().map {
                            try $0.decode(column: "version", as: Int.self)
                        })
                }) ?? []
            if applied.isSuperset(of: needed) { break }
            if !told {
                logger.notice("waiting for migrations \(needed.subtracting(applied).sorted()) (applied by `<module> --migrate`)")
                told = true
            }
            try await Task.sleep(for: interval)
        }
        self.migrated.withLockedValue { $0 = true }
    }
}
