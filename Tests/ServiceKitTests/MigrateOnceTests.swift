import Contracts
import Foundation
import HuddleEffects
import NIOHTTP1
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

/// Migrations applied once a rollout: a pod started with `<module>.db.migrate=wait` applies none and
/// does not answer until `<module> --migrate` (the production overlay's Job) has applied them all.
@Suite("Migrations once a rollout", .enabled(if: ServiceProcess.isBuilt("chat"), "needs the built chat executable"))
struct MigrateOnceTests {
    @Test("a waiting instance answers only once `chat --migrate` has applied every migration, which it does and exits")
    func waitsForTheMigrationJob() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = "sqlite:\(folder.path)/chat.sqlite"
        // The modules chat calls and sends events to are not needed to start; their addresses are.
        var settings = Dictionary(
            uniqueKeysWithValues: Set((Wiring.calls[.chat] ?? []) + (Wiring.eventConsumers[.chat] ?? [])).map {
                ("\($0.rawValue).url", "http://127.0.0.1:1")
            })
        settings.merge(["chat.db.url": store, "chat.db.migrate": "wait"]) { _, new in new }
        let waiting = try ServiceProcess("chat", settings: settings)
        let started = Task { try await waiting.start() }
        defer { Task { await waiting.stop() } }
        // Waiting, it neither answers nor makes the schema.
        let answered = try await eventually(within: .seconds(3)) {
            (try? await TestClient(baseURL: waiting.url).raw(.GET, "/health", timeout: .seconds(1)).status) == 200
        }
        #expect(!answered)
        #expect(try await Self.versions(in: store).isEmpty)

        let migrate = Process()
        migrate.executableURL = ServiceProcess.executable("chat")
        migrate.arguments = ["--migrate", "--set", "chat.db.url=\(store)", "--set", "log.level=error"]
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            migrate.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try migrate.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(status == 0)
        #expect(!(try await Self.versions(in: store)).isEmpty)
        try await started.value
        #expect(try await TestClient(baseURL: waiting.url).raw(.GET, "/health/ready").status == 200)
    }

    /// The migrations the store records (none before its table is made).
    static func versions(in store: String) async throws -> [Int] {
        let database = try await Database.open(url: store, now: Effects.system.now, logger: .quiet("migrate-once-test"))
        return try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                try await database.run()
                return []
            }
            defer { group.cancelAll() }
            return
                (try? await database.read { sql in
                    try await sql.raw("SELECT version FROM schema_migrations").all().map { try $0.decode(column: "version", as: Int.self) }
                }) ?? []
        }
    }
}
