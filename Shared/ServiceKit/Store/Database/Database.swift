public import Foundation
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import PostgresKit
import PostgresNIO
public import SQLKit
import SQLiteKit
import SQLiteNIO
public import ServiceHTTP
public import ServiceLifecycle
import Tracing

/// A service's store: SQLite (one file, or in memory) by default, PostgreSQL when the URL says so.
/// All SQL goes through SQLKit with bound parameters; `kind` lets a store branch on dialect.
///
/// It is a `Service`: add it with `app.addServices` so the PostgreSQL pool runs and SQLite closes
/// on shutdown.
public final class Database: Service, Sendable {
    public enum Kind: Sendable, Equatable {
        case sqlite, postgres

        /// Column type for instants: `TIMESTAMPTZ` on PostgreSQL, seconds since 1970 on SQLite.
        public var timestamp: String { self == .postgres ? "TIMESTAMPTZ" : "REAL" }
        public var autoIncrementPrimaryKey: String {
            self == .postgres ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        }
        public var boolean: String { self == .postgres ? "BOOLEAN" : "INTEGER" }
        public var bytes: String { self == .postgres ? "BYTEA" : "BLOB" }
    }

    enum Backend: Sendable {
        case sqlite(SQLiteSides)
        /// Its statements go through `ConnectionClosings`, so none waits for ever on a closed connection;
        /// `connections`: the most its pool holds.
        case postgres(PostgresClient, ConnectionClosings, connections: Int)
    }

    public let kind: Kind
    /// The URL with any password removed, for messages.
    public let displayURL: String
    let backend: Backend
    private let logger: Logger
    private let sqliteClosed = NIOLockedValueBox(false)
    /// SQLite's stand-in for LISTEN/NOTIFY (one process owns the file): this process's listeners by
    /// channel, told what a transaction notified once it commits (`TransactionEffects`).
    private let localListeners = NIOLockedValueBox<[String: [UUID: @Sendable (String) async -> Void]]>([:])
    /// Set once `migrate` has brought the schema up to date.
    let migrated = NIOLockedValueBox(false)
    /// Rung once a transaction that appended to the outbox has committed: this instance's dispatcher
    /// sends its events at once instead of at its next poll.
    public let outboxCommitted = Bell()
    /// The module's clock (`Effects.now`): what the store's own bookkeeping (migrations, the outbox,
    /// the inbox, idempotency keys, retention) stamps.
    public let now: @Sendable () -> Date
    var isMigrated: Bool { migrated.withLockedValue { $0 } }

    private init(kind: Kind, displayURL: String, backend: Backend, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.kind = kind
        self.now = now
        self.displayURL = displayURL
        self.backend = backend
        self.logger = logger
    }

    /// Opens `postgres://user:pass@host:port/db?sslmode=disable`, `sqlite:PATH` or `sqlite::memory:`;
    /// on PostgreSQL with at most `maxConnections` connections, `keptOpen` of them open all the time,
    /// and the statements run often kept prepared on each (`PreparedStatements`) unless not `prepared`
    /// (a pooler between that does not carry prepared statements, such as PgBouncer's transaction mode
    /// before 1.21).
    ///
    /// PostgresNIO's pool arms a keep-alive timer (30 s) and, for a connection beyond those kept open,
    /// an idle timer (60 s) each time a connection goes back to it unused; the next lease cancels
    /// them, but a cancelled `Task.sleep` keeps its memory until its deadline (swiftlang/swift#60441).
    /// A burst of 1,000 chat subscribes left 3 KB per socket of them in chat's RSS (32.0 KB per idle
    /// socket against 28.9 KB with none, `huddle-bench chat`). So no keep-alive queries (the pool
    /// learns of a connection the server closed from its socket, as it does under load) and connections
    /// kept open for the usual load, which takes the lowest connections first.
    public static func open(
        url: String, now: @escaping @Sendable () -> Date, logger: Logger, maxConnections: Int = 20, keptOpen: Int = 4,
        prepared: Bool = true
    ) async throws -> Database {
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            var configuration = try postgresConfiguration(url: url)
            configuration.options.maximumConnections = max(1, maxConnections)
            configuration.options.minimumConnections = min(max(0, keptOpen), configuration.options.maximumConnections)
            configuration.options.keepAliveBehavior = nil
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let backend = Backend.postgres(
                client, ConnectionClosings(preparing: prepared), connections: configuration.options.maximumConnections)
            return Database(kind: .postgres, displayURL: redact(url), backend: backend, now: now, logger: logger)
        }
        let path = url.hasPrefix("sqlite:") ? String(url.dropFirst("sqlite:".count)) : url
        let storage: SQLiteConnection.Storage
        if path == ":memory:" || path.isEmpty {
            storage = .memory
        } else {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            storage = .file(path: path)
        }
        let connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        let sql = SQLiteStatements(connection)
        // WAL lets readers (ours, and other processes': backups, sqlite3 shell) work while we write. A 64 MiB
        // page cache (the default is 2 MiB) and reads through a 1 GiB memory map keep the indexes
        // of a large read model close at hand; neither is allocated before it is used. Statement
        // journals (kept by every multi-row upsert inside a transaction) stay in memory instead of
        // a temporary file opened and written for each statement. The WAL is copied back into the
        // database at 64 MiB instead of 4 MiB, by the commit that crosses it: a page written by many
        // commits (a spatial index's nodes, a table's last page) is copied once for all of them, which
        // took search's indexing at a million games from 9,919 to 11,456 events/s.
        let eitherSide = [
            "PRAGMA busy_timeout=5000", "PRAGMA cache_size=-65536", "PRAGMA mmap_size=1073741824", "PRAGMA temp_store=MEMORY",
        ]
        for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA wal_autocheckpoint=16384"] + eitherSide {
            try await sql.raw(SQLQueryString(pragma)).run()
        }
        let writer = SQLiteSides.Side(connection: connection, lock: AsyncLock())
        var sides = SQLiteSides(writer: writer, reader: writer)
        // A database in memory is its connection's alone: it is read where it is written.
        if case .file = storage {
            let reader = try await SQLiteConnection.open(storage: storage, logger: logger)
            for pragma in ["PRAGMA query_only=ON"] + eitherSide {
                try await SQLiteStatements(reader).raw(SQLQueryString(pragma)).run()
            }
            sides = SQLiteSides(writer: writer, reader: .init(connection: reader, lock: AsyncLock()))
        }
        return Database(kind: .sqlite, displayURL: url, backend: .sqlite(sides), now: now, logger: logger)
    }

    /// Runs statements on the connection that writes, outside a transaction: a setting of how it
    /// writes (a `PRAGMA`), or a statement that writes a file of its own (`VACUUM INTO`). On PostgreSQL, `read`.
    func onWriter<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard case .sqlite(let sides) = backend else { return try await read(body) }
        return try await sides.writer.lock.withLock { try await body(SQLiteStatements(sides.writer.connection)) }
    }

    /// Runs statements outside an explicit transaction (each statement is atomic on its own).
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let sides):
            return try await sides.reader.lock.withLock { try await body(SQLiteStatements(sides.reader.connection)) }
        case .postgres(let client, let closings, let connections):
            // A read writes nothing, so one that met a connection the server had closed runs again on another.
            return try await Self.onOpenConnection(pooled: connections) {
                try await client.withConnection { connection in
                    do {
                        return try await body(closings.statements(on: connection))
                    } catch let error where Self.isEndedConnection(error) {
                        throw ClosedBeforeWork(error: error)
                    }
                }
            }
        }
    }

    /// Runs `body` in one transaction: everything it wrote commits together, or nothing does.
    /// Do not nest: on SQLite the inner call would wait for the outer forever. Each transaction is a
    /// span of the request's trace, marked with the module whose store it is.
    public func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await traced("SQL transaction") { try await inTransaction(body) }
    }

    /// `work` as a client span named `name`, saying which database and whose store, in a recorded trace.
    func traced<T>(_ name: String, _ work: () async throws -> T) async throws -> T {
        try await withSpanWhenTraced(name, ofKind: .client) { span in
            if let span {
                span.attributes["db.system"] = kind == .postgres ? "postgresql" : "sqlite"
                if case .string(let module)? = logger[metadataKey: "module"] { span.attributes["huddle.module"] = module }
            }
            return try await work()
        }
    }

    private func inTransaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let effects = TransactionEffects()
        let result = try await TransactionEffects.$current.withValue(effects) { try await committed(body) }
        if effects.appendedEvents { outboxCommitted.ring() }
        await deliverLocally(effects.notifications)
        return result
    }

    private func committed<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch backend {
        case .sqlite(let sides):
            return try await sides.writer.lock.withLock {
                let sql = SQLiteStatements(sides.writer.connection)
                try await sql.control("BEGIN IMMEDIATE")
                do {
                    let result = try await body(sql)
                    try await sql.control("COMMIT")
                    return result
                } catch {
                    try? await sql.control("ROLLBACK")
                    throw error
                }
            }
        case .postgres(let client, let closings, let connections):
            // BEGIN, COMMIT and ROLLBACK go through the watched statements too (PostgresClient's
            // `withTransaction` writes them on the bare connection), and callers see their own errors.
            // A transaction whose BEGIN met an ended connection has done nothing: it starts on another.
            return try await Self.onOpenConnection(pooled: connections) {
                try await client.withConnection { connection in
                    let sql = closings.statements(on: connection)
                    do {
                        try await sql.raw("BEGIN").run()
                    } catch let error where Self.isEndedConnection(error) {
                        throw ClosedBeforeWork(error: error)
                    }
                    do {
                        let result = try await body(sql)
                        try await sql.raw("COMMIT").run()
                        return result
                    } catch {
                        try? await sql.raw("ROLLBACK").run()
                        throw error
                    }
                }
            }
        }
    }

    /// `work` again while it fails because its leased connection had closed: the pool can lease a
    /// connection whose end it has not seen yet (the server ended its session, restarted, failed
    /// over), and a closed connection is not a reason to refuse the request. Only for work that had
    /// written nothing when it failed. Each ended connection fails one lease, then the pool drops it,
    /// so work tried once more than the pool holds connections has met an open one or a server that
    /// is down. (Three tries, as before, once failed the test that ends eight sessions at once, on a
    /// loaded machine in CI.)
    private static func onOpenConnection<T>(pooled connections: Int, _ work: () async throws -> T) async throws -> T {
        for _ in 0..<connections {
            do { return try await work() } catch is ClosedBeforeWork { continue }
        }
        do { return try await work() } catch let notRun as ClosedBeforeWork { throw notRun.error }
    }

    /// Work that met an ended connection before it had written anything.
    private struct ClosedBeforeWork: Error {
        let error: any Error
    }

    /// Whether `error` says the statement's connection had ended: closed under it, its socket failed
    /// or cut off mid-message (which is how an end the pool had not seen yet may show on a loaded
    /// machine), or ended by the server (its FATAL "terminating connection", SQLSTATE class 57P,
    /// comes as the reason).
    static func isEndedConnection(_ error: any Error) -> Bool {
        if error is PostgresConnectionClosed { return true }
        guard let psql = error as? PSQLError else { return false }
        let ended: [PSQLError.Code] = [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown]
        if ended.contains(psql.code) { return true }
        let reason = (psql.underlying as? PSQLError) ?? psql
        return reason.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    /// Whether `error` is PostgreSQL's unique violation (SQLSTATE 23505): a statement that inserted a
    /// key already taken, and wrote nothing.
    public static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    /// Returns once `migrate` has finished, for background work that must not touch the tables
    /// before they exist (it starts with the service group, migrations run just before the server).
    public func waitUntilMigrated() async throws {
        while !migrated.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Queues `payload` on `channel` for every listener of this database; delivered when the
    /// surrounding transaction commits (and not at all if it rolls back). Call it inside
    /// `transaction`. On PostgreSQL it is NOTIFY, which reaches every instance; on SQLite, whose file
    /// one process owns, it reaches this process's listeners.
    public func notify(channel: String, payload: String, on sql: any SQLDatabase) async throws {
        guard kind == .postgres else {
            // Outside a transaction the statement has committed already.
            if let effects = TransactionEffects.current {
                effects.notified(channel, payload)
            } else {
                await deliverLocally([(channel, payload)])
            }
            return
        }
        try await sql.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").run()
    }

    /// Listens on `channel` until cancelled, and again a second after the connection drops;
    /// `onListening` is told whether it is listening again (what was notified meanwhile was missed).
    public func keepListening(
        channel: String, logger: Logger, onListening: @escaping @Sendable (_ again: Bool) async -> Void = { _ in },
        handle: @escaping @Sendable (String) async -> Void
    ) async {
        var connectedBefore = false
        while !Task.isCancelled {
            let again = connectedBefore
            do {
                try await listen(channel: channel, onListening: { await onListening(again) }, handle: handle)
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                logger.warning("\(channel) notifications interrupted, listening again: \(error)")
            }
            connectedBefore = true
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Calls `handle` with each payload notified on `channel` until cancelled or (on PostgreSQL) the
    /// connection drops (then it throws; callers listen again).
    public func listen(channel: String, onListening: @Sendable () async -> Void = {}, handle: @escaping @Sendable (String) async -> Void)
        async throws
    {
        guard case .postgres(let client, _, _) = backend else {
            let id = UUID()
            localListeners.withLockedValue { $0[channel, default: [:]][id] = handle }
            defer { localListeners.withLockedValue { _ = $0[channel]?.removeValue(forKey: id) } }
            await onListening()
            while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
            return
        }
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                await onListening()
                for try await notification in notifications { await handle(notification.payload) }
            }
        }
    }

    private func deliverLocally(_ notifications: [(channel: String, payload: String)]) async {
        guard !notifications.isEmpty else { return }
        let listeners = localListeners.withLockedValue { $0 }
        for notification in notifications {
            for handle in (listeners[notification.channel] ?? [:]).values { await handle(notification.payload) }
        }
    }

    /// Fails with a clear message, instead of hanging, when the store cannot be reached.
    public func checkReachable(within timeout: Duration = .seconds(10)) async throws {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.read { try await $0.raw("SELECT 1").run() } }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw DatabaseUnreachable(url: self.displayURL, reason: "no answer within \(timeout)")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch let error as DatabaseUnreachable {
            throw error
        } catch {
            throw DatabaseUnreachable(url: displayURL, reason: String(describing: error))
        }
    }

    public func run() async throws {
        switch backend {
        case .postgres(let client, _, _):
            await client.run()
        case .sqlite:
            try? await gracefulShutdown()
            // Closing must happen even when this task was cancelled rather than shut down.
            try await Task { try await closeSQLite() }.value
        }
    }

    private func closeSQLite() async throws {
        guard case .sqlite(let sides) = backend,
            sqliteClosed.withLockedValue({ closed in
                defer { closed = true }
                return !closed
            })
        else { return }
        for connection in sides.connections { try await connection.close() }
    }

    deinit {
        // A store that was opened but never run (start-up failed elsewhere) still closes its file.
        if case .sqlite(let sides) = backend, !sqliteClosed.withLockedValue({ $0 }) {
            for connection in sides.connections { _ = connection.close() }
        }
    }

    private static func postgresConfiguration(url: String) throws -> PostgresClient.Configuration {
        let parsed = try SQLPostgresConfiguration(url: url)
        let core = parsed.coreConfiguration
        guard let host = core.host else { throw DatabaseUnreachable(url: redact(url), reason: "the URL names no host") }
        var tls: PostgresClient.Configuration.TLS =
            if let context = core.tls.sslContext {
                core.tls.isEnforced ? .require(context.configuration) : .prefer(context.configuration)
            } else { .disable }
        if let authority = try certificateAuthority(url: url) { tls = .require(authority) }
        var configuration = PostgresClient.Configuration(
            host: host, port: core.port ?? 5432, username: core.username, password: core.password,
            database: core.database, tls: tls)
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 20
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// `sslrootcert=PATH`, as libpq spells it: TLS verified against the CA in that PEM file rather than
    /// the system's (a PostgreSQL operator signs its servers' certificates with a CA of its own).
    static func certificateAuthority(url: String) throws -> TLSConfiguration? {
        guard let path = URLComponents(string: url)?.queryItems?.last(where: { $0.name == "sslrootcert" })?.value else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw DatabaseUnreachable(url: redact(url), reason: "its sslrootcert \(path) cannot be read")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .file(path)
        return configuration
    }

    /// What Huddle's connections call themselves to PostgreSQL (`pg_stat_activity.application_name`):
    /// an outbox is written only by them, so other programs' transactions hold back no event (`Outbox.isFinal`).
    static let applicationName = "huddle"

    static func redact(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "postgres://…" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "postgres://…"
    }
}

/// What the transaction under way did that matters once it has committed: whether it appended to
/// the outbox, and on SQLite what it notified. A task-local, so that writers inside `transaction`
/// (`Outbox.append`, `Database.notify`) need nothing but the statements they are given; nothing
/// of a transaction that rolled back is acted on.
final class TransactionEffects: Sendable {
    @TaskLocal static var current: TransactionEffects?

    private struct State {
        var appendedEvents = false
        var notifications: [(channel: String, payload: String)] = []
    }
    private let state = NIOLockedValueBox(State())
    var appendedEvents: Bool { state.withLockedValue { $0.appendedEvents } }
    var notifications: [(channel: String, payload: String)] { state.withLockedValue { $0.notifications } }
    func markAppendedEvents() { state.withLockedValue { $0.appendedEvents = true } }
    func notified(_ channel: String, _ payload: String) { state.withLockedValue { $0.notifications.append((channel, payload)) } }
}

public struct DatabaseUnreachable: Error, CustomStringConvertible {
    public let url: String
    public let reason: String
    public var description: String { "cannot reach the database at \(url): \(reason)" }
}

extension Database {
    /// A transaction that runs alone among those taking the same `lock`, on every instance of the
    /// service: PostgreSQL's transaction-scoped advisory lock (SQLite runs one transaction at a time
    /// anyway). For check-then-create work that two instances starting together must not both do.
    public func transaction<T: Sendable>(exclusive lock: Int64, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T)
        async throws -> T
    {
        let locking = kind == .postgres
        return try await transaction { sql in
            if locking { try await sql.raw("SELECT pg_advisory_xact_lock(\(literal: lock))").run() }
            return try await body(sql)
        }
    }

    /// Holds `key` until the transaction `sql` belongs to ends, on every instance of the service:
    /// PostgreSQL's transaction-scoped advisory lock on the key's hash (SQLite runs one transaction at a
    /// time anyway). For a per-account check-then-write — a count and the row it limits — that requests
    /// released together must not both pass.
    public static func lock(_ key: String, on sql: any SQLDatabase) async throws {
        guard sql.dialect.name == "postgresql" else { return }
        try await sql.raw("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: key), 0))").run()
    }

    /// A service's background work on its store: once the schema is migrated, `tick` runs again and
    /// again, pausing as long as it answers (or until `bell` rings), until the service shuts down.
    public func repeatUntilShutdown(wakingOn bell: Bell? = nil, _ tick: @escaping @Sendable () async -> Duration) async {
        await ServiceHTTP.repeatUntilShutdown(wakingOn: bell, after: { (try? await self.waitUntilMigrated()) != nil }, tick)
    }
}
