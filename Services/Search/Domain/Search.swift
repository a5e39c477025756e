import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Where and how far a search looks.
struct SearchArea: Sendable {
    static let maxRadiusKm = Query.maxRadiusKm

    var center: Coordinates
    var radiusKm: Double
    var radiusMeters: Double { radiusKm * 1000 }
}

/// The search use cases: candidates from the spatial index, the exact haversine distance, the
/// privacy rule, then nearest first.
struct Search: Sendable {
    let database: Database
    let places: any PlaceStore
    let players: any PlayerStore
    /// The `location` gate, where `purchases.gates` turns it on: search knows no rosters, so without
    /// it no result shows its place (the game's or team's own page shows it to members).
    let gatekeeper: Gatekeeper
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    /// Upcoming, not cancelled, public and protected games in the area, and private ones asking for
    /// substitutes, nearest first, then soonest, each written as its JSON result from the stored document
    /// (`NearbyJSON`), without `location` where this viewer may not see the place; of a private game,
    /// only what a would-be substitute is shown (`Game.shownToSubstitute`).
    func games(in area: SearchArea, filter: PlaceFilter, viewer: UserID, page: PageRequest) async throws -> Page<Data> {
        var filter = filter
        filter.startingAfter = now()
        let unlocked = try await gatekeeper.allows(.location, to: viewer, in: database)
        let (hits, next) = try await nearestPage(.game, in: area, filter: filter, page: page) { hit in
            "\(Self.sortable(hit.candidate.startsAt))/\(hit.candidate.id)"
        }
        let items = try hits.map { hit in
            if hit.candidate.privacy == .private {
                return try HuddleJSON.encoder.encode(hit.decoded(as: Game.self) { game in game = game.shownToSubstitute })
            }
            let placeShown = unlocked && hit.candidate.privacy.revealsExactLocation(toParticipant: false)
            if let written = NearbyJSON.withDistance(
                hit.candidate.doc, meters: hit.distanceMeters, without: placeShown ? [] : Game.placeKeys)
            {
                return written
            }
            return try HuddleJSON.encoder.encode(
                hit.decoded(as: Game.self) { game in
                    if !placeShown { game.hidePlace() }
                })
        }
        return Page(items: items, nextCursor: next)
    }

    func teams(in area: SearchArea, filter: PlaceFilter, viewer: UserID, page: PageRequest) async throws -> Page<Nearby<TeamResult>> {
        let unlocked = try await gatekeeper.allows(.location, to: viewer, in: database)
        // Teams come second by name, which only their documents hold: those in the ring are read.
        let (hits, next) = try await nearestPage(.team, in: area, filter: filter, page: page) { hit in
            "\(try hit.decoded(as: TeamResult.self).item.name)/\(hit.candidate.id)"
        }
        let teams = try hits.map { hit in
            try hit.decoded(as: TeamResult.self) { team in
                if !unlocked || !team.privacy.revealsExactLocation(toParticipant: false) { team.location = nil }
            }
        }
        return Page(items: teams, nextCursor: next)
    }

    func courses(in area: SearchArea, page: PageRequest) async throws -> Page<Nearby<Course>> {
        let (hits, next) = try await nearestPage(.course, in: area, filter: PlaceFilter(), page: page) { $0.candidate.id }
        return Page(items: try hits.map { try $0.decoded(as: Course.self) }, nextCursor: next)
    }

    /// The `limit` nearest venues within `area`'s radius, which every search takes alike.
    func venues(in area: SearchArea, limit: Int) async throws -> [Nearby<Venue>] {
        let (hits, _) = try await nearestPage(.venue, in: area, filter: PlaceFilter(), page: PageRequest(limit: limit)) { $0.candidate.id }
        return try hits.map { try $0.decoded(as: Venue.self) }
    }

    /// A time that sorts as text in time order (games at the same distance, soonest first).
    static func sortable(_ date: Date?) -> String {
        String(format: "%020.3f", (date ?? .distantPast).timeIntervalSince1970 + 1e11)
    }

    /// Players by name, best match first: prefixes, then shared trigrams (typos forgiven).
    func players(matching text: String, page: PageRequest) async throws -> Page<PlayerResult> {
        let candidates = try await database.read { sql in try await players.candidates(matching: text, limit: 200, on: sql) }
        let ranked = candidates.map { ($0, NameMatch.score(name: $0.name, query: text)) }
            .filter { $0.1 >= NameMatch.threshold }
            .sorted { ($1.1, $0.0.name, $0.0.id.description) < ($0.1, $1.0.name, $1.0.id.description) }
            .map(\.0)
        return try paged(ranked, page)
    }

    // MARK: Helpers

    /// The candidates within the circle, with their distance. Only those on the page asked for are
    /// decoded (`Hit.decoded`): a search with no filter 50 km into the benchmark's million games has
    /// about 750 in the circle and shows 20.
    func nearby(_ kind: PlaceKind, in area: SearchArea, filter: PlaceFilter) async throws -> [Hit] {
        // The index looks at least a metre around (`IndexedPosition`); the circle is then exact.
        let boxRadius = max(area.radiusMeters, IndexedPosition.smallestBoxRadiusMeters)
        let boxes = GeoBox.covering(area.center, radiusMeters: boxRadius)
        let candidates = try await database.read { sql in
            try await places.candidates(kind, in: boxes, filter: filter, on: sql)
        }
        return candidates.compactMap { candidate in
            let distance = Geodesy.distance(from: area.center, to: candidate.coordinates)
            guard distance <= area.radiusMeters else { return nil }
            return Hit(candidate: candidate, distanceMeters: Int(distance.rounded()))
        }
    }

    /// A place within the circle, before its document is decoded.
    struct Hit: Sendable {
        let candidate: PlaceCandidate
        let distanceMeters: Int

        /// Nearest first, then by id, so that equal distances keep one order page after page.
        static func nearestFirst(_ one: Hit, _ other: Hit) -> Bool {
            (one.distanceMeters, one.candidate.id) < (other.distanceMeters, other.candidate.id)
        }

        /// The place as a result: its document decoded, then changed by `shown` for the viewer.
        func decoded<Item: Codable & Sendable & Equatable>(
            as type: Item.Type, shown: (inout Item) -> Void = { _ in }
        ) throws -> Nearby<Item> {
            var item = try HuddleJSON.decoder.decode(Item.self, from: candidate.doc)
            shown(&item)
            return Nearby(item: item, distanceMeters: distanceMeters)
        }
    }

    /// Results are worked out whole, so a page is a slice; the cursor is the offset of the next one.
    /// `shown` makes the slice's results (decoding only what the page shows).
    private func paged<Sorted, Item>(_ sorted: [Sorted], _ page: PageRequest, _ shown: (Sorted) throws -> Item) throws -> Page<Item> {
        let offset = Int(try page.integerCursor() ?? 0)
        guard offset >= 0 else { throw CommonError.invalid("cursor", "is not a cursor this list gave out") }
        let slice = try sorted.dropFirst(offset).prefix(page.limit).map(shown)
        let next = offset + slice.count
        return Page(items: slice, nextCursor: next < sorted.count ? PageRequest.cursor(String(next)) : nil)
    }

    private func paged<Item>(_ sorted: [Item], _ page: PageRequest) throws -> Page<Item> {
        try paged(sorted, page) { $0 }
    }
}
