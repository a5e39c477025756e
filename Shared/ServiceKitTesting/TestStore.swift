import Foundation
public import Logging
import SQLKit
public import ServiceKit

/// The stores a test runs against: SQLite always, PostgreSQL too when `HUDDLE_TEST_POSTGRES_URL`
/// is set. Use as `@Test(arguments: TestStore.all)`.
public enum TestStore: String, Sendable, CaseIterable {
    case sqlite, postgres

    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["HUDDLE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var all: [TestStore] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    /// A database URL no other test uses: an in-memory SQLite, or a new PostgreSQL database.
    public func freshDatabaseURL() async throws -> String {
        switch self {
        case .sqlite:
            return "sqlite::memory:"
        case .postgres:
            guard let base = Self.postgresURL, var components = URLComponents(string: base) else {
                throw MissingConfiguration(key: "HUDDLE_TEST_POSTGRES_URL", hint: "set it to run PostgreSQL tests")
            }
            let name = "huddle_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            // One statement: one connection, none kept open.
            let admin = try await Database.open(url: base, logger: .quiet("test-admin"), maxConnections: 1, keptOpen: 0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await admin.run() }
                try await admin.read { sql in try await sql.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
                group.cancelAll()
            }
            components.path = "/" + name
            return components.string!
        }
    }

    /// A fresh database of this store, open and running for the length of `body`.
    public func withDatabase<T>(logger: Logger, _ body: (Database) async throws -> T) async throws -> T {
        let database = try await Database.open(url: try await freshDatabaseURL(), logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.run() }
            defer { group.cancelAll() }
            return try await body(database)
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
