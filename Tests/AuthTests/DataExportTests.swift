import Contracts
import Foundation
import Logging
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@testable import AuthService

/// Asking for one's data; the journey to the finished document is `AccountDataThroughGatewayTests`.
@Suite("Data exports, at auth")
struct DataExportTests {
    /// On PostgreSQL sixteen requests at once made seven exports, each asking every module for the
    /// player's data. Here no other module runs, so the export stays pending throughout.
    @Test("requests from several devices at once share one export", arguments: TestStore.all)
    func requestsAtOnce(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let player = try await auth.register(name: "Exporter")
            let ids = try await (0..<16).concurrentMap { _ in
                try await expect(202, auth.call(AuthAPI.requestExport, token: player.accessToken)).decode(DataExport.self).id
            }
            #expect(Set(ids).count == 1)
            let export = try await auth.value(AuthAPI.export, try #require(ids.first), token: player.accessToken)
            #expect(export.status == .pending)
        }
    }

    @Test("the migration to one pending export keeps each player's earliest, and every finished one", arguments: TestStore.all)
    func migrationKeepsTheEarliest(store: TestStore) async throws {
        let logger = Logger.quiet("auth-migration-test")
        try await store.withDatabase(logger: logger) { database in
            try await database.migrate(AuthMigrations.all.filter { $0.version < 13 }, logger: logger)
            let ana = UserID(), ben = UserID()
            // Ids in the order requested, as `timeOrdered` gives them a second apart.
            func id(_ second: Double) -> DataExportID { .timeOrdered(at: Date(timeIntervalSince1970: 1_800_000_000 + second)) }
            let rows: [(DataExportID, UserID, DataExportStatus)] = [
                (id(0), ana, .pending), (id(1), ana, .pending), (id(2), ana, .ready), (id(3), ben, .pending),
            ]
            try await database.transaction { sql in
                for (id, user, status) in rows {
                    try await sql.insert(into: "data_exports").columns("id", "user_id", "status", "requested_at")
                        .values(SQLBind(id.description), SQLBind(user.description), SQLBind(status.rawValue), SQLBind(Date())).run()
                }
            }
            try await database.migrate(AuthMigrations.all, logger: logger)
            let left = try await database.read { sql in
                try await sql.select().column("id").from("data_exports").orderBy("id").all().map {
                    try $0.decode(column: "id", as: String.self)
                }
            }
            #expect(left == [rows[0], rows[2], rows[3]].map(\.0.description).sorted())
            let again = DataExport(id: .timeOrdered(at: Date()), status: .pending, requestedAt: Date())
            #expect(
                try await database.transaction { sql in try await SQLExportStore().insertUnlessPending(again, of: ben, on: sql) } == false)
        }
    }
}
