import Contracts
import Foundation
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/search/...`: anyone signed in searches.
struct SearchController: Controller {
    let search: Search
    let geocoder: PostcodeGeocoder

    func register(on router: Router<HuddleRequestContext>) {
        router.on(SearchAPI.games, encoded: games)
        router.on(SearchAPI.teams, use: teams)
        router.on(SearchAPI.courses, use: courses)
        router.on(SearchAPI.venues, use: venues)
        router.on(SearchAPI.players, use: players)
    }

    /// `GET /v1/search/games`, its page written by `NearbyJSON` rather than `Codable`.
    @Sendable func games(_ request: Request, _ context: AuthenticatedContext) async throws -> EncodedJSON<Page<Nearby<Game>>> {
        let filter = try SearchQuery.filter(request, games: true)
        let area = try await area(request)
        let page = try await search.games(in: area, filter: filter, viewer: context.userID, page: try PageRequest(request))
        return EncodedJSON(try NearbyJSON.page(of: page.items, nextCursor: page.nextCursor))
    }

    /// `GET /v1/search/teams`
    @Sendable func teams(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Nearby<TeamResult>> {
        let filter = try SearchQuery.filter(request, games: false)
        let area = try await area(request)
        return try await search.teams(in: area, filter: filter, viewer: context.userID, page: try PageRequest(request))
    }

    /// `GET /v1/search/courses`
    @Sendable func courses(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Nearby<Course>> {
        try await search.courses(in: try await area(request), page: try PageRequest(request))
    }

    /// `GET /v1/search/venues`
    @Sendable func venues(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Nearby<Venue>> {
        let limit = try request.query(SearchAPI.venuesLimit)
        return Page(items: try await search.venues(in: try await area(request), limit: limit), nextCursor: nil)
    }

    /// The circle a search looks in; a postcode is placed by the geocoder once every other field was checked.
    private func area(_ request: Request) async throws -> SearchArea {
        let (origin, radiusKm) = (try request.query(Query.searchOrigin), try request.query(Query.radiusKm))
        return SearchArea(center: try await geocoder.place(of: origin), radiusKm: radiusKm)
    }

    /// `GET /v1/search/players`
    @Sendable func players(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<PlayerResult> {
        try await search.players(matching: try request.query(SearchAPI.playerText), page: try PageRequest(request))
    }
}

/// `/internal/reindex`: rebuilds the index from the owners' snapshots; answers what it read.
struct SearchInternalController: Controller {
    let reindex: Reindex

    func register(on router: Router<HuddleRequestContext>) {
        router.on(SearchAPI.Internal.reindex, use: rebuildIndex)
    }

    /// `POST /internal/reindex`
    @Sendable func rebuildIndex(_ request: Request, _ context: HuddleRequestContext) async throws -> ReindexResult {
        try await reindex.run()
    }
}

/// Search's query fields as the domain takes them.
enum SearchQuery {
    static func filter(_ request: Request, games: Bool) throws -> PlaceFilter {
        var filter = PlaceFilter(
            sport: try request.query(Query.sport), skill: try request.query(SearchAPI.skill),
            ageGroup: try request.query(SearchAPI.ageGroup), gender: try request.query(SearchAPI.gender))
        // A team looking for players is indexed as needing them (`PlaceDocument.subsNeeded`).
        guard games else {
            filter.needsPlayers = try request.query(SearchAPI.recruiting)
            return filter
        }
        filter.from = try request.query(SearchAPI.from)
        filter.to = try request.query(SearchAPI.to)
        if let from = filter.from, let to = filter.to, from > to { throw CommonError.invalid("to", "must not be before from") }
        filter.needsPlayers = try request.query(SearchAPI.needsPlayers)
        filter.openSlots = try request.query(SearchAPI.openSlots)
        return filter
    }
}
