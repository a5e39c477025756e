import Contracts
import Foundation
import SQLKit
import ServiceKit
import ServiceKitTesting
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
                    let rid = try await sql.insert(into: "places").columns(SQLPlaceStore.documentColumns)
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
                        kind, in: GeoBox.covering(center, radiusMeters: 1000), center: center, radiusMeters: 1000,
                        filter: PlaceFilter(sport: sport), on: sql)
                }.map(\.id).sorted()
            }
            #expect(try await found(.game, sport: .cricket) == ["cricket-game"])
            #expect(try await found(.game, sport: .tennis) == ["tennis-game"])
            #expect(try await found(.game, sport: .hockey).isEmpty)
            #expect(try await found(.game, sport: nil) == ["cricket-game", "tennis-game"])
            #expect(try await found(.course, sport: nil) == ["a-course"])
        }
    }
}
