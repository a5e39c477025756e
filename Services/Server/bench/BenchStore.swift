import Foundation
import ServiceKitTesting

/// Where a benchmark's modules keep their stores, and the directory their files go in, removed at the end.
struct BenchStore {
    /// A PostgreSQL server's URL whose user may create databases; SQLite files in `directory` when nil.
    let postgres: String?
    let directory: URL

    init(postgres: String?, name: String) throws {
        self.postgres = postgres
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let postgres { setenv("HUDDLE_TEST_POSTGRES_URL", postgres, 1) }
    }

    /// A fresh database of the server, or a SQLite file named after `module`.
    func url(_ module: String) async throws -> String {
        postgres == nil ? "sqlite:\(directory.path)/\(module).sqlite" : try await TestStore.postgres.freshDatabaseURL()
    }

    var kind: String { postgres == nil ? "SQLite" : "PostgreSQL" }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
