import Contracts
import Foundation
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@testable import SearchService

/// A store indexed before the spatial index knew sports: migration 6 puts every place already there
/// under its sport, so a search for a sport finds them, and one for another sport does not.
@Suite("Search's spatial index by sport")
struct SportIndexMigrationTests {
    @Test("places indexed before the sport was in the spatial index are found by their sport after the migration", arguments: TestStore.all)
    func placesKeepTheirSport(store: TestStore) async throws {
        try await store.withDatabase(logger: .quiet("search-migration-test")) { database in
            let before = SearchMigrations.all.filter { $0.version < 6 }
            try await database.migrate(before, logger: .quiet("search-migration-test"))
            // What version 5's store wrote: the row, and on SQLite its point in the old R*Tree.
            try await database.transaction { sql in
                for (id, sport) in [("cricket-game", "cricket"), ("tennis-game", "tennis"), ("a-course", nil)] {
                    let rid = try await sql.insert(into: "places").columns(SQLPlaceStore.documentColumns.filter { $0 != "is_full" })
                        .values(
                            SQLBind(id == "a-course" ? "course" : "game"), SQLBind(id), SQLBind("{}"), SQLBind(59.43), SQLBind(24.75),
                            SQLBind("public"), SQLBind(sport), SQLBind(nil as String?), SQLBind(nil as String?), SQLBind(nil as String?),
                            SQLBind(nil as Date?), SQLBind(0), SQLBind(false)
                        ).returning("rid").first()?.decode(column: "rid", as: Int64.self)
                    guard database.kind == .sqlite, let rid else { continue }
                    try await sql.insert(into: "places_geo").columns("rid", "min_lat", "max_lat", "min_lng", "max_lng")
                        .values(SQLBind(rid), SQLBind(59.43), SQLBind(59.43), SQLBind(24.75), SQLBind(24.75)).run()
                }
            }
            try await database.migrate(SearchMigrations.all, logger: .quiet("search-migration-test"))

            let places = SQLPlaceStore(kind: database.kind)
            let center = Coordinates(lat: 59.43, lng: 24.75)
            func found(_ kind: PlaceKind, sport: Sport?) async throws -> [String] {
                try await database.read { sql in
                    try await places.candidates(
                        kind, in: GeoBox.covering(center, radiusMeters: 1000), filter: PlaceFilter(sport: sport), on: sql)
                }.map(\.id).sorted()
            }
            #expect(try await found(.game, sport: .cricket) == ["cricket-game"])
            #expect(try await found(.game, sport: .tennis) == ["tennis-game"])
            #expect(try await found(.game, sport: .hockey).isEmpty)
            #expect(try await found(.game, sport: nil) == ["cricket-game", "tennis-game"])
            #expect(try await found(.course, sport: nil) == ["a-course"])
        }
    }

    @Test("a search for a sport is answered by the spatial index, not by reading every place", arguments: TestStore.all)
    func searchesUseTheSpatialIndex(store: TestStore) async throws {
        try await store.withDatabase(logger: .quiet("search-migration-test")) { database in
            try await database.migrate(SearchMigrations.all, logger: .quiet("search-migration-test"))
            let places = SQLPlaceStore(kind: database.kind)
            // Across the antimeridian: two boxes, each of which must be asked of the index.
            let boxes = GeoBox.covering(Coordinates(lat: -17.7, lng: 179.9), radiusMeters: 50_000)
            #expect(boxes.count == 2)
            let plan = try await database.transaction { sql in
                if database.kind == .postgres {
                    // PostgreSQL plans by cost: with its statistics of some thousands of places spread
                    // over the globe, and scans forbidden (still chosen when the query's expression is
                    // not the index's).
                    try await sql.raw(
                        """
                        INSERT INTO places (\(unsafeRaw: SQLPlaceStore.documentColumns.joined(separator: ", ")))
                        SELECT 'game', 'g' || g, '{}', -60 + g % 120, -180 + g * 7 % 360, 'public',
                            (ARRAY['soccer', 'cricket', 'tennis', 'hockey', 'other'])[1 + g % 5], NULL, NULL, NULL, NULL, 0, false, false
                        FROM generate_series(1, 20000) AS g
                        """
                    ).run()
                    try await sql.raw("ANALYZE places").run()
                    try await sql.raw("SET LOCAL enable_seqscan = off").run()
                }
                let query = places.candidatesQuery(.game, in: boxes, filter: PlaceFilter(sport: .cricket), on: sql).select
                let explain = database.kind == .postgres ? "EXPLAIN" : "EXPLAIN QUERY PLAN"
                let column = database.kind == .postgres ? "QUERY PLAN" : "detail"
                return try await sql.raw("\(unsafeRaw: explain) \(query)").all()
                    .map { try $0.decode(column: column, as: String.self) }.joined(separator: "\n")
            }
            if database.kind == .postgres {
                // Each box is a condition of the index, not a filter on what the sport alone found.
                let lines = plan.split(separator: "\n")
                let conditions = zip(lines, lines.dropFirst()).filter { $0.0.contains("places_sport_point") }.map(\.1)
                #expect(conditions.count == 2, "\(plan)")
                #expect(conditions.allSatisfy { $0.contains("Index Cond:") && $0.contains("sport = ") && $0.contains("<@") }, "\(plan)")
            } else {
                #expect(plan.contains("VIRTUAL TABLE INDEX"), "\(plan)")
                #expect(!plan.contains("SCAN places ") && !plan.hasSuffix("SCAN places"), "\(plan)")
            }
        }
    }
}
