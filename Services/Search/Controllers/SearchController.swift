import Contracts
import Foundation
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/search/...`: anyone signed in searches.
struct SearchController: Controller {
    let search: Search

    func register(on router: Router<HuddleRequestContext>) {
        router.on(
            SearchAPI.games,
            encoded: { request, context in
                let (area, filter) = try (SearchQuery.area(request), SearchQuery.filter(request, games: true))
                let page = try await search.games(in: area, filter: filter, viewer: context.userID, page: try PageRequest(request))
                return EncodedJSON(try NearbyJSON.page(of: page.items, nextCursor: page.nextCursor))
            })
        router.on(SearchAPI.teams) { request, context in
            let (area, filter) = try (SearchQuery.area(request), SearchQuery.filter(request, games: false))
            return try await search.teams(in: area, filter: filter, viewer: context.userID, page: try PageRequest(request))
        }
        router.on(SearchAPI.courses) { request, _ in
            try await search.courses(in: try SearchQuery.area(request), page: try PageRequest(request))
        }
        router.on(SearchAPI.venues) { request, _ in
            let area = try SearchQuery.area(request)
            return Page(items: try await search.venues(in: area, limit: try request.query(SearchAPI.venuesLimit)), nextCursor: nil)
        }
        router.on(SearchAPI.players) { request, _ in
            try await search.players(matching: try request.query(SearchAPI.playerText), page: try PageRequest(request))
        }
    }
}

/// `/internal/reindex`: rebuilds the index from the owners' snapshots; answers what it read.
struct SearchInternalController: Controller {
    let reindex: Reindex

    func register(on router: Router<HuddleRequestContext>) {
        router.on(SearchAPI.Internal.reindex) { _, _ in try await reindex.run() }
    }
}

/// Search's query fields as the domain takes them.
enum SearchQuery {
    static func area(_ request: Request) throws -> SearchArea {
        SearchArea(center: try request.query(Query.place), radiusKm: try request.query(Query.radiusKm))
    }

    static func filter(_ request: Request, games: Bool) throws -> PlaceFilter {
        var filter = PlaceFilter(
            sport: try request.query(Query.sport), skill: try request.query(SearchAPI.skill),
            ageGroup: try request.query(SearchAPI.ageGroup), gender: try request.query(SearchAPI.gender))
        guard games else { return filter }
        filter.from = try request.query(SearchAPI.from)
        filter.to = try request.query(SearchAPI.to)
        if let from = filter.from, let to = filter.to, from > to { throw CommonError.invalid("to", "must not be before from") }
        filter.needsPlayers = try request.query(SearchAPI.needsPlayers)
        return filter
    }
}
