import Contracts
import Foundation
import SQLKit
import ServiceFeatures
import ServiceKitTesting
import ServiceStore
import Testing

/// A module's part of a player's export: only the declared columns, typed alike on both stores.
@Suite("Personal data sections")
struct PersonalDataExportTests {
    static let migrations = [
        Migration(version: 1, name: "scores") { kind in
            [
                """
                CREATE TABLE scores (player TEXT NOT NULL, course_name TEXT NOT NULL, strokes INTEGER NOT NULL, rating DOUBLE PRECISION,
                counted \(kind.boolean) NOT NULL, played_at \(kind.timestamp) NOT NULL, data TEXT NOT NULL, secret TEXT NOT NULL)
                """
            ]
        }
    ]

    static let export = PersonalDataExport([
        PersonalDataSection(
            "scores",
            columns: [
                .text("course_name"), .integer("strokes"), .number("rating"), .boolean("counted"), .time("played_at"), .json("data"),
            ]
        ) { user in "SELECT * FROM scores WHERE player = \(bind: user.description) ORDER BY played_at" }
    ])

    @Test(
        "rows become objects of the declared columns in camelCase: numbers, booleans, RFC 3339 times, embedded JSON, nulls",
        arguments: TestStore.all)
    func typedColumns(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: DatabaseTests.logger)
            let ada = UserID(), bo = UserID()
            let playedAt = Date(timeIntervalSince1970: 1_795_000_000)
            try await database.transaction { sql in
                for (player, strokes, rating) in [(ada, 54, Optional(71.5)), (bo, 60, nil)] {
                    try await sql.raw(
                        """
                        INSERT INTO scores VALUES (\(bind: player.description), 'Song Festival Grounds', \(bind: strokes), \(bind: rating),
                        \(bind: true), \(bind: playedAt), '{"hole": 3}', 'hash')
                        """
                    ).run()
                }
            }
            let data = try await Self.export.gather(for: ada, from: database)
            #expect(
                data["scores"]
                    == .array([
                        .object([
                            "courseName": .string("Song Festival Grounds"), "strokes": .integer(54), "rating": .number(71.5),
                            "counted": .bool(true), "playedAt": .string(HuddleJSON.formatRFC3339(playedAt)),
                            "data": .object(["hole": .integer(3)]),
                        ])
                    ]))
            let other = try await Self.export.gather(for: bo, from: database)
            guard case .array(let rows)? = other["scores"], case .object(let row)? = rows.first else {
                Issue.record("no row for Bo")
                return
            }
            #expect(row["rating"] == .null && row["secret"] == nil)
            #expect(try await Self.export.gather(for: UserID(), from: database)["scores"] == .array([]))
        }
    }
}
