import Configuration
import Contracts
import Foundation
import SQLKit
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

@Suite("Retention")
struct RetentionTests {
    static let migrations: [Migration] = [
        .inbox(version: 1),
        Migration(version: 2, name: "jobs") { kind in
            ["CREATE TABLE jobs (id INTEGER PRIMARY KEY, state TEXT NOT NULL, run_at \(kind.timestamp) NOT NULL)"]
        },
    ]

    static func retention(_ database: Database, _ settings: [String: String] = [:]) -> Retention {
        Retention(
            database: database,
            rules: [.inbox, RetentionRule("jobs", table: "jobs", column: "run_at", defaultDays: 7, condition: "state <> 'pending'")],
            reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            module: .notify, logger: DatabaseTests.logger)
    }

    @Test(
        "rows past their age go in batches, those within it and those the condition keeps stay; an age of 0 keeps all",
        arguments: TestStore.all)
    func prunes(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: DatabaseTests.logger)
            let now = Date()
            try await database.transaction { sql in
                for index in 0..<25 {
                    let age = Double(index % 5) * 10 * 86_400
                    try await sql.insert(into: "inbox").columns("event_id", "type", "applied_at")
                        .values(SQLBind("e\(index)"), SQLBind("t"), SQLBind(now.addingTimeInterval(-age))).run()
                    try await sql.insert(into: "jobs").columns("id", "state", "run_at")
                        .values(SQLBind(index), SQLBind(index % 2 == 0 ? "sent" : "pending"), SQLBind(now.addingTimeInterval(-age))).run()
                }
            }
            // Inbox rows 40 days old go (a fifth); jobs older than a week that are not pending go.
            let removed = await Self.retention(database, ["notify.retention.batch": "2"]).prune(at: now)
            #expect(removed == ["inbox": 5, "jobs": 10])
            let left = try await database.read { sql in
                (
                    try await sql.select().column("event_id").from("inbox").all().count,
                    try await sql.select().column("state").from("jobs").where(
                        "run_at", .lessThan, SQLBind(now.addingTimeInterval(-7 * 86_400))
                    )
                    .all().map { try $0.decode(column: "state", as: String.self) }
                )
            }
            #expect(left.0 == 20 && Set(left.1) == ["pending"])
            #expect(
                await Self.retention(database, ["notify.retention.inbox.days": "0", "notify.retention.jobs.days": "0"]).prune(at: now)
                    .isEmpty)
        }
    }
}
