public import Contracts
import Foundation
import HuddleEffects
public import Logging
import SQLKit
import ServiceHTTP
public import ServiceStore

/// The stores a test runs against: SQLite always, PostgreSQL too when `HUDDLE_TEST_POSTGRES_URL`
/// is set. Use as `@Test(arguments: TestStore.all)`.
public enum TestStore: String, Sendable, CaseIterable {
    case sqlite, postgres

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["HUDDLE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var all: [TestStore] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// Where tests' SQLite files go: a file, as deployed (a reader beside the writer, WAL), but on a
    /// memory-backed file system where there is one, so a commit's sync costs nothing.
    static let sqliteFolder: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.fileExists(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        return base.appendingPathComponent("huddle-tests")
    }()

    /// A database URL no other test uses: a new SQLite file, or a new PostgreSQL database, named
    /// with the second it was made in (`huddle_t_<seconds>_<random>`) so that a later run can tell
    /// a leftover from one in use.
    public func freshDatabaseURL() async throws -> String {
        switch self {
        case .sqlite:
            return "sqlite:" + Self.sqliteFolder.appendingPathComponent("\(UUID.random().lowercasedString).sqlite").path
        case .postgres:
            guard let base = Self.postgresURL, var components = URLComponents(string: base) else {
                throw MissingConfiguration(key: "HUDDLE_TEST_POSTGRES_URL", hint: "set it to run PostgreSQL tests")
            }
            await Self.leftoversDropped.value
            let random = UUID.random().lowercasedString.replacingOccurrences(of: "-", with: "").prefix(16)
            let name = "\(Self.namePrefix)\(Int(Effects.system.now().timeIntervalSince1970))_\(random)"
            try await Self.administer(base) { sql in try await sql.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            components.path = "/" + name
            return components.string!
        }
    }

    /// `<module>.db.url` for each of `modules` whose store `config` does not give (one several stacks
    /// share in turn is the test's to keep), each a fresh database: a stack drops these once it stops.
    public func freshDatabases(for modules: [ServiceModule], besides config: [String: String]) async throws -> [String: String] {
        var urls: [String: String] = [:]
        for module in modules where config["\(module.rawValue).db.url"] == nil {
            urls["\(module.rawValue).db.url"] = try await freshDatabaseURL()
        }
        return urls
    }

    /// Drops the databases `freshDatabaseURL` made among `urls` (others are left alone), with any
    /// connection still open to them: call it once whatever used them has stopped. A stack of eight
    /// modules makes eight, a benchmark's million games about 900 MB; thousands left behind kept
    /// PostgreSQL's autovacuum launcher at a sixth of a core.
    public static func dropDatabases(_ urls: some Sequence<String>) async {
        for url in urls where url.hasPrefix("sqlite:" + sqliteFolder.path) {
            let file = String(url.dropFirst("sqlite:".count))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        let names = urls.compactMap { URLComponents(string: $0)?.path.dropFirst() }.filter { $0.hasPrefix(namePrefix) }
        guard let base = postgresURL, !names.isEmpty else { return }
        try? await administer(base) { sql in
            for name in names { try? await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: String(name)) WITH (FORCE)").run() }
        }
    }

    /// A fresh database of this store, open and running for the length of `body`.
    public func withDatabase<T>(logger: Logger, _ body: (Database) async throws -> T) async throws -> T {
        let url = try await freshDatabaseURL()
        let database = try await Database.open(url: url, now: Effects.system.now, logger: logger)
        do {
            let result = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.run() }
                defer { group.cancelAll() }
                return try await body(database)
            }
            await Self.dropDatabases([url])
            return result
        } catch {
            await Self.dropDatabases([url])
            throw error
        }
    }

    static let namePrefix = "huddle_t_"

    /// Test databases an hour old or more, of runs that were killed or that made databases they did
    /// not drop, are dropped before this process makes its first. One still in use is not
    /// (`DROP DATABASE` refuses while a connection is open), nor one a run still going made a minute ago.
    private static let leftoversDropped = Task {
        guard let base = postgresURL else { return }
        let hourAgo = Int(Effects.system.now().timeIntervalSince1970) - 3600
        try? await administer(base) { sql in
            let names = try await sql.raw("SELECT datname FROM pg_database WHERE datname LIKE 'huddle\\_t\\_%'").all()
                .map { try $0.decode(column: "datname", as: String.self) }
            for name in names {
                // Older names carried no time: they are leftovers too.
                let made = name.dropFirst(namePrefix.count).split(separator: "_").first.flatMap { Int($0) } ?? 0
                guard made <= hourAgo else { continue }
                try? await sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name)").run()
            }
        }
    }

    /// Runs `body` on one connection to the server at `base`, which is closed after it.
    private static func administer(_ base: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        let admin = try await Database.open(
            url: base, now: Effects.system.now, logger: .quiet("test-admin"), maxConnections: 1, keptOpen: 0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await admin.run() }
            defer { group.cancelAll() }
            try await admin.read(body)
        }
    }
}

extension Logger {
    /// A logger for tests that open stores directly: only what is critical gets through.
    public static func quiet(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        return logger
    }
}
