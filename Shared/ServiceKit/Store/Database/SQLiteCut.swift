public import Foundation
public import Logging
import SQLKit
import SQLiteNIO

/// Copies of several SQLite stores as they all stood at one instant, taken while they are in use:
/// every store's write lock is taken first (writers elsewhere wait, up to their busy timeout of five
/// seconds), then each is copied by a reader of its own (`VACUUM INTO`, which a writer's lock does not
/// stop in WAL mode), then the locks are let go. Stores linked by events — an outbox here, an inbox and
/// a delivered position there — are copied at the same point of every stream, so a restore neither
/// loses an event nor sends one twice.
public enum SQLiteCut {
    public struct Copy: Sendable, Codable {
        public let name: String
        public let bytes: Int
        /// The last event of the store's outbox, and how far each subscriber's stream (`subscriber/part`) was delivered.
        public let lastEvent: Int?
        public let delivered: [String: Int]
    }

    /// Copies each store of `stores` (name → the SQLite file) into `directory` as `name.sqlite`.
    ///
    /// The locks are taken one store after another, and a module may hold one store's lock while it
    /// waits for another's (a transaction that calls another module, which writes): taking them can
    /// meet such a writer head on. So the copy waits at most a second for each lock, lets go of all of
    /// them when one does not come, and tries again a little later, up to `attempts` times; the
    /// modules' writers, which wait five seconds, go on meanwhile.
    public static func copy(
        _ stores: [(name: String, file: URL)], into directory: URL, now: @escaping @Sendable () -> Date, logger: Logger,
        attempts: Int = 10
    ) async throws -> [Copy] {
        var attempt = 1
        while true {
            do {
                return try await copyOnce(stores, into: directory, now: now, logger: logger)
            } catch let error as SQLiteError where [.busy, .busyTimeout, .locked].contains(error.reason) && attempt < attempts {
                logger.notice("a store's write lock did not come within a second; the backup lets go of every lock and tries again")
                try await Task.sleep(for: .milliseconds(100 * attempt))
                attempt += 1
            }
        }
    }

    private static func copyOnce(
        _ stores: [(name: String, file: URL)], into directory: URL, now: @escaping @Sendable () -> Date, logger: Logger
    ) async throws -> [Copy] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Two connections a store: one holds its write lock, the other reads it out.
        var databases: [Database] = []
        for store in stores + stores {
            databases.append(try await Database.open(url: "sqlite:\(store.file.path)", now: now, logger: logger))
        }
        let (holders, readers) = (databases.prefix(stores.count), Array(databases.suffix(stores.count)))
        for holder in holders { try await holder.onWriter { sql in try await sql.raw("PRAGMA busy_timeout=1000").run() } }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // Each connection is closed when its `run` is cancelled, as a module's are at shutdown.
            for database in databases { group.addTask { try await database.run() } }
            defer { group.cancelAll() }
            return try await holding(holders) {
                var copies: [Copy] = []
                for (store, reader) in zip(stores, readers) {
                    let target = directory.appendingPathComponent("\(store.name).sqlite")
                    try? FileManager.default.removeItem(at: target)
                    // `VACUUM INTO` writes a file: a store's reading connection may not.
                    copies.append(try await reader.onWriter { sql in try await copy(store.name, on: sql, to: target) })
                }
                return copies
            }
        }
    }

    /// Runs `body` while every one of `holders` holds its store's write lock.
    private static func holding<T: Sendable>(_ holders: ArraySlice<Database>, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        guard let first = holders.first else { return try await body() }
        let rest = holders.dropFirst()
        return try await first.transaction { _ in try await holding(rest, body) }
    }

    private static func copy(_ name: String, on sql: any SQLDatabase, to target: URL) async throws -> Copy {
        try await sql.raw(SQLQueryString("VACUUM INTO '\(unsafeRaw: target.path.replacingOccurrences(of: "'", with: "''"))'")).run()
        let hasOutbox = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").first() != nil
        var lastEvent: Int?, delivered: [String: Int] = [:]
        if hasOutbox {
            lastEvent = try await sql.raw("SELECT MAX(seq) AS last FROM outbox").first()?.decode(column: "last", as: Int?.self)
            for row in try await sql.raw("SELECT subscriber, part, delivered_seq FROM outbox_cursors").all() {
                let stream = "\(try row.decode(column: "subscriber", as: String.self))/\(try row.decode(column: "part", as: Int.self))"
                delivered[stream] = try row.decode(column: "delivered_seq", as: Int.self)
            }
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
        return Copy(name: name, bytes: bytes, lastEvent: lastEvent, delivered: delivered)
    }
}
