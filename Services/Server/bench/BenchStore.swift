import Foundation
import NIOConcurrencyHelpers
import ServiceKitTesting

/// Where a benchmark's modules keep their stores, and the directory their files go in.
final class BenchStore: Sendable {
    /// A PostgreSQL server's URL whose user may create databases; SQLite files in `directory` when nil.
    let postgres: String?
    let directory: URL
    private let databases = NIOLockedValueBox<[String]>([])

    private init(postgres: String?, name: String) throws {
        self.postgres = postgres
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let postgres { setenv("HUDDLE_TEST_POSTGRES_URL", postgres, 1) }
    }

    /// Runs `body` with a new store, then removes its files and drops its databases (a million games
    /// are about 900 MB in either), whether or not `body` threw.
    static func with<T>(postgres: String?, name: String, _ body: (BenchStore) async throws -> T) async throws -> T {
        let store = try BenchStore(postgres: postgres, name: name)
        do {
            let result = try await body(store)
            await store.remove()
            return result
        } catch {
            await store.remove()
            throw error
        }
    }

    /// A fresh database of the server, or a SQLite file named after `module`.
    func url(_ module: String) async throws -> String {
        guard postgres != nil else { return "sqlite:\(directory.path)/\(module).sqlite" }
        let url = try await TestStore.postgres.freshDatabaseURL()
        databases.withLockedValue { $0.append(url) }
        return url
    }

    var kind: String { postgres == nil ? "SQLite" : "PostgreSQL" }

    private func remove() async {
        try? FileManager.default.removeItem(at: directory)
        await TestStore.dropDatabases(databases.withLockedValue { $0 })
    }
}
