import Foundation
import HuddleEffects
import Logging
import NIOConcurrencyHelpers
import SQLKit
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

@Suite("Database and migrations")
struct DatabaseTests {
    static let logger = Logger.quiet("db-test")

    static let migrations = [
        Migration(version: 1, name: "notes") { kind in
            ["CREATE TABLE notes (id \(kind.autoIncrementPrimaryKey), body TEXT NOT NULL, at \(kind.timestamp) NOT NULL)"]
        },
        Migration(version: 2, name: "tags") { _ in ["CREATE TABLE tags (name TEXT PRIMARY KEY)"] },
    ]

    static func withDatabase<T>(_ store: TestStore, body: (Database) async throws -> T) async throws -> T {
        try await store.withDatabase(logger: logger, body)
    }

    @Test("migrations apply once, in order, and are recorded", arguments: TestStore.all)
    func migrationsApplyOnce(store: TestStore) async throws {
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            try await database.migrate(Self.migrations, logger: Self.logger)
            let versions = try await database.read { sql in
                try await sql.select().column("version").from("schema_migrations").orderBy("version")
                    .all(decodingColumn: "version", as: Int.self)
            }
            #expect(versions == [1, 2])
        }
    }

    @Test("a transaction that throws leaves nothing behind", arguments: TestStore.all)
    func rollback(store: TestStore) async throws {
        struct Boom: Error {}
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            await #expect(throws: Boom.self) {
                try await database.transaction { sql in
                    try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("half"), SQLBind(Date())).run()
                    throw Boom()
                }
            }
            try await database.transaction { sql in
                try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("whole"), SQLBind(Date())).run()
            }
            let bodies = try await database.read { sql in
                try await sql.select().column("body").from("notes").all(decodingColumn: "body", as: String.self)
            }
            #expect(bodies == ["whole"])
        }
    }

    @Test("a long list of values reads the rows it names, as one array on PostgreSQL", arguments: TestStore.all)
    func longList(store: TestStore) async throws {
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            let stored = (0..<3000).map { "tag-\($0)" }
            try await database.transaction { sql in
                for slice in stored.statementSlices() {
                    try await sql.insert(into: "tags").columns("name").rows(slice.map { [SQLBind($0)] }).run()
                }
            }
            // Every other stored tag, some named twice, and names that match nothing.
            let asked = stride(from: 0, to: 3000, by: 2).map { "tag-\($0)" } + ["tag-0", "tag-2", "no-such-tag", "tag-3000"]
            let (found, none, binds) = try await database.read { sql in
                @Sendable func names(_ values: [String]) async throws -> [String] {
                    try await sql.select().column("name").from("tags").where(SQLInList("name", values)).all(
                        decodingColumn: "name", as: String.self)
                }
                var serializer = SQLSerializer(database: sql)
                SQLInList("name", asked).serialize(to: &serializer)
                return (try await names(asked), try await names([]), serializer.binds.count)
            }
            #expect(found.count == 1500)
            #expect(Set(found) == Set(stride(from: 0, to: 3000, by: 2).map { "tag-\($0)" }))
            #expect(none.isEmpty)
            // One bound value on PostgreSQL, whatever the list's length, so its planning does not grow with it.
            #expect(binds == (store == .sqlite ? asked.count : 1))
        }
    }

    @Test("a read neither waits for a transaction under way nor sees it before it commits", arguments: TestStore.all)
    func readBesideTransaction(store: TestStore) async throws {
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            @Sendable func bodies() async throws -> [String] {
                try await database.read { sql in
                    try await sql.select().column("body").from("notes").orderBy("id").all(decodingColumn: "body", as: String.self)
                }
            }
            @Sendable func insert(_ body: String, on sql: any SQLDatabase) async throws {
                try await sql.insert(into: "notes").columns("body", "at").values(SQLBind(body), SQLBind(Date())).run()
            }
            try await database.transaction { sql in try await insert("before", on: sql) }
            let (written, writtenSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let writing = Task {
                try await database.transaction { sql in
                    try await insert("during", on: sql)
                    writtenSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in written { break }
            // Within five seconds, or the writer is let go so that the read (and the test) can end.
            let seen = try await withThrowingTaskGroup(of: [String]?.self) { group in
                group.addTask { try await bodies() }
                group.addTask {
                    try await Task.sleep(for: .seconds(5))
                    return nil
                }
                let first = try await group.next() ?? nil
                releaseSignal.yield()
                group.cancelAll()
                return first
            }
            #expect(seen == ["before"], "the read waited for the transaction, or saw it uncommitted")
            try await writing.value
            #expect(try await bodies() == ["before", "during"])
        }
    }

    @Test("on SQLite a write sent where reads go is refused, not run past the writer's lock")
    func readsDoNotWrite() async throws {
        try await Self.withDatabase(.sqlite) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            await #expect(throws: (any Error).self) {
                try await database.read { sql in
                    try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("stray"), SQLBind(Date())).run()
                }
            }
        }
    }

    @Test("a transaction whose task is cancelled rolls back and leaves the store usable", arguments: TestStore.all)
    func cancelledTransaction(store: TestStore) async throws {
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            let cancelled = Task {
                try await database.transaction { sql in
                    try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("half"), SQLBind(Date())).run()
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await sql.insert(into: "tags").columns("name").values(SQLBind("half")).run()
                    try Task.checkCancellation()
                }
            }
            await #expect(throws: CancellationError.self) { try await cancelled.value }
            try await database.transaction { sql in
                try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("whole"), SQLBind(Date())).run()
            }
            let bodies = try await database.read { sql in
                try await sql.select().column("body").from("notes").all(decodingColumn: "body", as: String.self)
            }
            #expect(bodies == ["whole"])
        }
    }

    @Test("concurrent transactions do not interleave", arguments: TestStore.all)
    func concurrentTransactions(store: TestStore) async throws {
        try await Self.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await database.transaction { sql in
                            try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("n\(index)"), SQLBind(Date())).run()
                            try await sql.insert(into: "tags").columns("name").values(SQLBind("t\(index)")).run()
                        }
                    }
                }
                try await group.waitForAll()
            }
            let counts = try await database.read { sql in
                (
                    try await sql.select().column("body").from("notes").all().count,
                    try await sql.select().column("name").from("tags").all().count
                )
            }
            #expect(counts == (20, 20))
        }
    }

    @Test("an unreachable PostgreSQL fails fast with a clear message")
    func unreachable() async throws {
        let database = try await Database.open(
            url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable", now: Effects.system.now, logger: Self.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.run() }
            defer { group.cancelAll() }
            let started = ContinuousClock.now
            await #expect(throws: DatabaseUnreachable.self) {
                try await database.checkReachable(within: .seconds(2))
            }
            // A hang, not this machine's speed, is what this catches: a connect to a dead address can
            // take minutes.
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test(
        "on PostgreSQL a statement run again is prepared once on its connection, one first met in an aborted transaction runs later, one planned each run is not kept",
        .enabled(if: TestStore.postgresURL != nil))
    func preparedStatements() async throws {
        let url = try await TestStore.postgres.freshDatabaseURL()
        defer { Task { await TestStore.dropDatabases([url]) } }
        // One connection, so every statement below meets the same one.
        let database = try await Database.open(url: url, now: Effects.system.now, logger: Self.logger, maxConnections: 1, keptOpen: 1)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.run() }
            defer { group.cancelAll() }
            try await database.migrate(Self.migrations, logger: Self.logger)
            @Sendable func tagged(_ name: String, on sql: any SQLDatabase) async throws -> [String] {
                try await sql.select().column("name").from("tags").where("name", .equal, SQLBind(name)).all(
                    decodingColumn: "name", as: String.self)
            }
            // The transaction is aborted by the second insert; the read after it is the statement's first
            // preparation on the connection, and fails.
            let refused = try await database.transaction { sql in
                try await sql.insert(into: "tags").columns("name").values(SQLBind("twice")).run()
                var refused = 0
                do { try await sql.insert(into: "tags").columns("name").values(SQLBind("twice")).run() } catch { refused += 1 }
                do { _ = try await tagged("twice", on: sql) } catch { refused += 1 }
                return refused
            }
            #expect(refused == 2)
            let (found, prepared, plannedEachRun) = try await database.read { sql in
                var found: [String] = []
                for _ in 0..<5 { found += try await tagged("twice", on: sql) }
                for _ in 0..<5 {
                    try await sql.raw("SELECT \(unsafeRaw: PreparedStatements.plannedEachRun) name FROM tags WHERE name = \(bind: "x")")
                        .run()
                }
                let prepared = { (pattern: String) in
                    try await sql.raw("SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE \(bind: pattern)").first()?
                        .decode(column: "n", as: Int.self)
                }
                return (found, try await prepared("SELECT \"name\" FROM \"tags\"%"), try await prepared("%planned each run%"))
            }
            #expect(found.isEmpty)
            // The failed preparation's name was given up; the statement was prepared once more and then reused.
            #expect(prepared == 1)
            #expect(plannedEachRun == 0)
        }
    }

    // PostgreSQL only: SQLite's file cannot close under a transaction.
    @Test(
        "a statement on a connection the server closed fails at once, in a read and in a transaction, and the store goes on",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func closedConnection() async throws {
        try await Self.withDatabase(.postgres) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            await #expect(throws: (any Error).self) {
                try await database.read { sql in
                    try? await Self.endSession(sql)
                    try await Self.waitUntilClosed(sql)
                    try await sql.select().column("body").from("notes").run()
                }
            }
            await #expect(throws: (any Error).self) {
                try await database.transaction { sql in
                    try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("lost"), SQLBind(Date())).run()
                    try? await Self.endSession(sql)
                    try await Self.waitUntilClosed(sql)
                    try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("after"), SQLBind(Date())).run()
                }
            }
            // Other connections still serve, and the transaction left nothing.
            let bodies = try await database.read { sql in
                try await sql.select().column("body").from("notes").all(decodingColumn: "body", as: String.self)
            }
            #expect(bodies.isEmpty)
        }
    }

    @Test(
        "reads and transactions leased connections the server has just ended run on others, and nothing runs twice",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func endedConnectionsInThePool() async throws {
        // PostgresNIO's errors describe themselves only when reflected: a failure here should say what ended.
        do { try await endedConnectionsInThePoolRunOnOthers() } catch {
            Issue.record("\(String(reflecting: error))")
            throw error
        }
    }

    private func endedConnectionsInThePoolRunOnOthers() async throws {
        try await Self.withDatabase(.postgres) { database in
            try await database.migrate(Self.migrations, logger: Self.logger)
            // The pool opens a connection for each of these at once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { try await database.read { try await $0.raw("SELECT pg_sleep(0.1)").run() } } }
                try await group.waitForAll()
            }
            let ended = try await database.read { sql in
                try await sql.raw(
                    "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).all(decodingColumn: "ended", as: Bool.self)
            }
            #expect(ended.count >= 7)
            // At once, before the pool has seen every end.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await database.transaction { sql in
                            try await sql.insert(into: "notes").columns("body", "at").values(SQLBind("note \(index)"), SQLBind(Date()))
                                .run()
                        }
                    }
                    group.addTask { _ = try await database.read { try await $0.select().column("body").from("notes").all() } }
                }
                try await group.waitForAll()
            }
            let bodies = try await database.read { sql in
                try await sql.select().column("body").from("notes").all(decodingColumn: "body", as: String.self)
            }
            #expect(bodies.sorted() == (0..<8).map { "note \($0)" }.sorted())
        }
    }

    @Test(
        "a listener whose session the server ends listens again, says so, and hears what is notified after",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func listeningAgain() async throws {
        try await Self.withDatabase(.postgres) { database in
            let channel = "relisten_\(UInt32.random(in: 0...UInt32.max))"
            let heard = NIOLockedValueBox<[String]>([]), listenedAgain = NIOLockedValueBox(false)
            let listening = Task {
                await database.keepListening(
                    channel: channel, logger: Self.logger,
                    onListening: { again in if again { listenedAgain.withLockedValue { $0 = true } } }
                ) { payload in heard.withLockedValue { $0.append(payload) } }
            }
            defer { listening.cancel() }
            // Notified until heard: the listener may not be listening yet, and then not yet again.
            func heardOnceNotified(_ payload: String) async throws -> Bool {
                try await eventually(within: .seconds(20)) {
                    try await database.transaction { try await database.notify(channel: channel, payload: payload, on: $0) }
                    return heard.withLockedValue { $0.contains(payload) }
                }
            }
            #expect(try await heardOnceNotified("before"))
            let ended = try await database.read { sql in
                try await sql.raw(
                    "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query LIKE \(bind: "LISTEN%\(channel)%")"
                ).all(decodingColumn: "ended", as: Bool.self)
            }
            #expect(ended == [true])
            #expect(try await heardOnceNotified("after"))
            #expect(listenedAgain.withLockedValue { $0 })
        }
    }

    /// The server ends this session's backend: its answer is an error, then the socket closes.
    static func endSession(_ sql: any SQLDatabase) async throws {
        try await sql.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
    }

    /// Waits for the connection under `sql` to notice it was closed; the statement after is then
    /// written to a closed channel, the case that went unanswered.
    static func waitUntilClosed(_ sql: any SQLDatabase) async throws {
        while !(try #require(sql as? PostgresConnectionStatements)).isClosed { try await Task.sleep(for: .milliseconds(5)) }
    }
}
