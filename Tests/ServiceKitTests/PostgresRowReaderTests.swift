import Foundation
import Logging
import PostgresKit
import SQLKit
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

@Suite("PostgreSQL rows", .enabled(if: TestStore.postgresURL != nil))
struct PostgresRowReaderTests {
    struct Note: Codable, Equatable, Sendable {
        let body: String
        let stars: Int
    }

    static let logger = Logger.quiet("rows-test")

    /// What reading `column` as `T` gives, the value or that it failed, to compare two readers by.
    static func reading<T: Decodable>(_ row: some SQLRow, _ column: String, as _: T.Type) -> String {
        do { return "value \(String(reflecting: try row.decode(column: column, as: T.self)))" } catch { return "failed" }
    }

    @Test("every column reads as PostgresKit reads it, as every type the stores ask for, and as what cannot be")
    func readsAsPostgresKit() async throws {
        try await TestStore.postgres.withDatabase(logger: Self.logger) { database in
            let mood = "mood_\(UInt32.random(in: 0...UInt32.max))"
            try await database.transaction { sql in try await sql.raw("CREATE TYPE \(unsafeRaw: mood) AS ENUM ('glad')").run() }
            let rows = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT 'text'::text AS t, NULL::text AS no_text, 'v'::varchar AS v, 'n'::name AS n, 42::int8 AS i8, 7::int4 AS i4,
                      2.5::float8 AS d, 1.25::numeric AS num, true AS b, now() AS at, NULL::timestamptz AS no_at,
                      '0189abcd-ef01-7234-9abc-def012345678'::uuid AS u, '{"body":"hi","stars":3}'::jsonb AS j,
                      'glad'::\(unsafeRaw: mood) AS e, '12'::text AS digits
                    """
                ).all()
            }
            let row = try #require(rows.first as? PostgresRowReader)
            let kit = row.row.sql()
            #expect(row.allColumns == kit.allColumns)
            for column in row.allColumns + ["absent"] {
                #expect(row.contains(column: column) == kit.contains(column: column))
                #expect(try row.decodeNil(column: column) == kit.decodeNil(column: column), "\(column)")
                #expect(Self.reading(row, column, as: String.self) == Self.reading(kit, column, as: String.self), "\(column) as String")
                #expect(Self.reading(row, column, as: String?.self) == Self.reading(kit, column, as: String?.self), "\(column) as String?")
                #expect(Self.reading(row, column, as: Int.self) == Self.reading(kit, column, as: Int.self), "\(column) as Int")
                #expect(Self.reading(row, column, as: Int?.self) == Self.reading(kit, column, as: Int?.self), "\(column) as Int?")
                #expect(Self.reading(row, column, as: Int64.self) == Self.reading(kit, column, as: Int64.self), "\(column) as Int64")
                #expect(Self.reading(row, column, as: Double.self) == Self.reading(kit, column, as: Double.self), "\(column) as Double")
                #expect(Self.reading(row, column, as: Decimal.self) == Self.reading(kit, column, as: Decimal.self), "\(column) as Decimal")
                #expect(Self.reading(row, column, as: Bool.self) == Self.reading(kit, column, as: Bool.self), "\(column) as Bool")
                #expect(Self.reading(row, column, as: Date.self) == Self.reading(kit, column, as: Date.self), "\(column) as Date")
                #expect(Self.reading(row, column, as: Date?.self) == Self.reading(kit, column, as: Date?.self), "\(column) as Date?")
                #expect(Self.reading(row, column, as: UUID.self) == Self.reading(kit, column, as: UUID.self), "\(column) as UUID")
                #expect(Self.reading(row, column, as: Note.self) == Self.reading(kit, column, as: Note.self), "\(column) as a document")
            }
            // The readings compared above are the values themselves, not two failures alike.
            #expect(try row.decode(column: "t", as: String.self) == "text")
            #expect(try row.decode(column: "no_text", as: String?.self) == nil)
            #expect(try row.decode(column: "i8", as: Int.self) == 42)
            #expect(try row.decode(column: "num", as: Double.self) == 1.25)
            #expect(try row.decode(column: "e", as: String.self) == "glad")
            #expect(try row.decode(column: "j", as: Note.self) == Note(body: "hi", stars: 3))
            #expect(throws: (any Error).self) { try row.decode(column: "absent", as: String.self) }
        }
    }

    @Test("binds go as PostgresKit sends them: PostgresNIO's types, nil, and documents its other ways")
    func bindsAsPostgresKit() async throws {
        try await TestStore.postgres.withDatabase(logger: Self.logger) { database in
            let at = Date(timeIntervalSince1970: 1_790_000_000.25)
            let id = UUID()
            let row = try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT \(bind: "text") AS t, \(bind: String?.none) AS no_text, \(bind: 42) AS i, \(bind: 2.5) AS d, \(bind: true) AS b,
                      \(bind: at) AS at, \(bind: id) AS u, \(bind: Note(body: "hi", stars: 3)) AS j
                    """
                ).first()
            }
            let read = try #require(row)
            #expect(try read.decode(column: "t", as: String.self) == "text")
            #expect(try read.decodeNil(column: "no_text"))
            #expect(try read.decode(column: "i", as: Int.self) == 42)
            #expect(try read.decode(column: "d", as: Double.self) == 2.5)
            #expect(try read.decode(column: "b", as: Bool.self))
            #expect(try read.decode(column: "at", as: Date.self) == at)
            #expect(try read.decode(column: "u", as: UUID.self) == id)
            #expect(try read.decode(column: "j", as: Note.self) == Note(body: "hi", stars: 3))
        }
    }
}
