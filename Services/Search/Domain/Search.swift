import Contracts
import Foundation
import SQLKit
import ServiceKit

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

    /// Upcoming, not cancelled, public and protected games in the area, nearest first, then soonest.
    func games(in area: SearchArea, filter: PlaceFilter, viewer: UserID, page: PageRequest) async throws -> Page<Nearby<Game>> {
        var filter = filter
        filter.startingAfter = now()
        let unlocked = try await gatekeeper.allows(.location, to: viewer, in: database)
        let hits = try await nearby(.game, in: area, filter: filter, as: Game.self) { game, _ in
            var game = game
            if !unlocked || !game.privacy.revealsExactLocation(toParticipant: false) { game.location = nil }
            return game
        }
        return try paged(
            hits.sorted {
                ($0.distanceMeters, $0.item.startsAt, $0.item.id.description) < (
                    $1.distanceMeters, $1.item.startsAt, $1.item.id.description
                )
            }, page)
    }

    func teams(in area: SearchArea, filter: PlaceFilter, viewer: UserID, page: PageRequest) async throws -> Page<Nearby<TeamResult>> {
        let unlocked = try await gatekeeper.allows(.location, to: viewer, in: database)
        let hits = try await nearby(.team, in: area, filter: filter, as: TeamResult.self) { team, _ in
            var team = team
            if !unlocked || !team.privacy.revealsExactLocation(toParticipant: false) { team.location = nil }
            return team
        }
        return try paged(
            hits.sorted {
                ($0.distanceMeters, $0.item.name, $0.item.id.description) < ($1.distanceMeters, $1.item.name, $1.item.id.description)
            }, page)
    }

    func courses(in area: SearchArea, page: PageRequest) async throws -> Page<Nearby<Course>> {
        let hits = try await nearby(.course, in: area, filter: PlaceFilter(), as: Course.self) { course, _ in course }
        return try paged(hits.sorted { ($0.distanceMeters, $0.item.id.description) < ($1.distanceMeters, $1.item.id.description) }, page)
    }

    /// The nearest venues, however far (within the largest radius).
    func venues(near center: Coordinates, limit: Int) async throws -> [Nearby<Venue>] {
        let area = SearchArea(center: center, radiusKm: SearchArea.maxRadiusKm)
        let hits = try await nearby(.venue, in: area, filter: PlaceFilter(), as: Venue.self) { venue, _ in venue }
        return Array(
            hits.sorted { ($0.distanceMeters, $0.item.id.description) < ($1.distanceMeters, $1.item.id.description) }.prefix(limit))
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

    private func nearby<Item: Codable & Sendable & Equatable>(
        _ kind: PlaceKind, in area: SearchArea, filter: PlaceFilter, as type: Item.Type, shown: (Item, PlaceCandidate) -> Item
    ) async throws -> [Nearby<Item>] {
        let boxes = GeoBox.covering(area.center, radiusMeters: area.radiusMeters)
        let (candidates, hidden) = try await database.read { sql in
            let candidates = try await places.candidates(
                kind, in: boxes, center: area.center, radiusMeters: area.radiusMeters, filter: filter, on: sql)
            // What moderators hid is left out for everyone: its managers find it in their own lists.
            guard let type = kind.subjectType else { return (candidates, Set<UUID>()) }
            return (candidates, try await HiddenSubjects().hidden(type, among: candidates.compactMap { UUID(uuidString: $0.id) }, on: sql))
        }
        return try candidates.compactMap { candidate in
            if !hidden.isEmpty, let id = UUID(uuidString: candidate.id), hidden.contains(id) { return nil }
            let distance = Geodesy.distance(from: area.center, to: candidate.coordinates)
            guard distance <= area.radiusMeters else { return nil }
            let item = try HuddleJSON.decoder.decode(Item.self, from: candidate.doc)
            return Nearby(item: shown(item, candidate), distanceMeters: Int(distance.rounded()))
        }
    }

    /// Results are worked out whole, so a page is a slice; the cursor is the offset of the next one.
    private func paged<Item>(_ sorted: [Item], _ page: PageRequest) throws -> Page<Item> {
        let offset = Int(try page.integerCursor() ?? 0)
        guard offset >= 0 else { throw CommonError.invalid("cursor", "is not a cursor this list gave out") }
        let slice = Array(sorted.dropFirst(offset).prefix(page.limit))
        let next = offset + slice.count
        return Page(items: slice, nextCursor: next < sorted.count ? PageRequest.cursor(String(next)) : nil)
    }
}
