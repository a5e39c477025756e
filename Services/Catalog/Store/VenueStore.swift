import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Grounds and parks where games are played.
protocol VenueStore: Sendable {
    func insert(_ venue: Venue, on sql: any SQLDatabase) async throws
    func venue(_ id: VenueID, on sql: any SQLDatabase) async throws -> Venue?
    func venues(after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Venue]
    /// The venue an import made from `source`'s record (`casey:R0042`), held for the transaction.
    func venue(source: String, on sql: any SQLDatabase) async throws -> Venue?
    /// Venues no import made whose name is `name` in any case, held for the transaction.
    func unsourcedVenues(named name: String, on sql: any SQLDatabase) async throws -> [Venue]
    /// Inserts a venue an import made, remembering its source record.
    func insert(_ venue: Venue, source: String, on sql: any SQLDatabase) async throws
    /// Remembers that `venue` is `source`'s record from now on.
    func adopt(_ venue: VenueID, source: String, on sql: any SQLDatabase) async throws
    /// Saves name, place, sports, website, description and postcode.
    func update(_ venue: Venue, on sql: any SQLDatabase) async throws
}

struct SQLVenueStore: VenueStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    func insert(_ venue: Venue, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "venues")
            .columns("id", "name", "name_key", "lat", "lng", "address", "sports", "website", "description", "postcode", "created_at")
            .values(
                SQLBind(venue.id.description), SQLBind(venue.name), SQLBind(NameCursor.key(venue.name)),
                SQLBind(venue.location.lat), SQLBind(venue.location.lng), SQLBind(venue.location.address),
                SQLBind(venue.sports.storedList), SQLBind(venue.website), SQLBind(venue.description), SQLBind(venue.postcode),
                SQLBind(now())
            ).run()
    }

    func venue(source: String, on sql: any SQLDatabase) async throws -> Venue? {
        try await select(on: sql).where("source", .equal, SQLBind(source)).for(.update).first().map(Self.decode)
    }

    func unsourcedVenues(named name: String, on sql: any SQLDatabase) async throws -> [Venue] {
        try await select(on: sql).where("name_key", .equal, SQLBind(NameCursor.key(name))).where("source", .is, SQLLiteral.null)
            .for(.update).all().map(Self.decode)
    }

    func insert(_ venue: Venue, source: String, on sql: any SQLDatabase) async throws {
        try await insert(venue, on: sql)
        try await adopt(venue.id, source: source, on: sql)
    }

    func adopt(_ venue: VenueID, source: String, on sql: any SQLDatabase) async throws {
        try await sql.update("venues").set("source", to: SQLBind(source)).where("id", .equal, SQLBind(venue.description)).run()
    }

    func update(_ venue: Venue, on sql: any SQLDatabase) async throws {
        try await sql.update("venues").set("name", to: SQLBind(venue.name)).set("name_key", to: SQLBind(NameCursor.key(venue.name)))
            .set("lat", to: SQLBind(venue.location.lat)).set("lng", to: SQLBind(venue.location.lng))
            .set("address", to: SQLBind(venue.location.address)).set("sports", to: SQLBind(venue.sports.storedList))
            .set("website", to: SQLBind(venue.website)).set("description", to: SQLBind(venue.description))
            .set("postcode", to: SQLBind(venue.postcode)).where("id", .equal, SQLBind(venue.id.description)).run()
    }

    func venue(_ id: VenueID, on sql: any SQLDatabase) async throws -> Venue? {
        try await select(on: sql).where("id", .equal, SQLBind(id.description)).first().map(Self.decode)
    }

    func venues(after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Venue] {
        var query = select(on: sql)
        if let after { query = query.where(after.condition(table: "venues")) }
        return try await query.orderBy("name_key").orderBy("id").limit(limit).all().map(Self.decode)
    }

    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns("id", "name", "lat", "lng", "address", "sports", "website", "description", "postcode").from("venues")
    }

    static func decode(_ row: any SQLRow) throws -> Venue {
        Venue(
            id: try row.typedID("id"), name: try row.decode(column: "name", as: String.self),
            location: Location(
                lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self),
                address: try row.decode(column: "address", as: String?.self)),
            sports: try row.enumList("sports"),
            website: try row.decode(column: "website", as: String?.self),
            description: try row.decode(column: "description", as: String?.self),
            postcode: try row.decode(column: "postcode", as: String?.self))
    }
}
