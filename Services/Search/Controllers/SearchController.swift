import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/search/...`: anyone signed in searches. Query parameters are checked field by field.
struct SearchController: Controller {
    let search: Search

    func register(on router: Router<HuddleRequestContext>) {
        router.on(SearchAPI.games) { request, _ in
            let (area, filter) = try (SearchQuery.area(request), SearchQuery.filter(request, games: true))
            return try await search.games(in: area, filter: filter, page: try PageRequest(request))
        }
        router.on(SearchAPI.teams) { request, _ in
            let (area, filter) = try (SearchQuery.area(request), SearchQuery.filter(request, games: false))
            return try await search.teams(in: area, filter: filter, page: try PageRequest(request))
        }
        router.on(SearchAPI.courses) { request, _ in
            try await search.courses(in: try SearchQuery.area(request), page: try PageRequest(request))
        }
        router.on(SearchAPI.venues) { request, _ in
            let center = try SearchQuery.area(request).center
            let limit = try request.query("limit", as: Int.self) ?? 5
            guard (1...100).contains(limit) else { throw CommonError.invalid("limit", "must be from 1 to 100") }
            return Page(items: try await search.venues(near: center, limit: limit), nextCursor: nil)
        }
        router.on(SearchAPI.players) { request, _ in
            guard let text = try request.text("q", PlayerSearch.text) else { throw CommonError.invalid("q", "is required") }
            return try await search.players(matching: text, page: try PageRequest(request))
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

/// Reading and checking search parameters; every bad one is named at once.
enum SearchQuery {
    static func area(_ request: Request) throws -> SearchArea {
        var errors: [Problem.FieldError] = []
        func number(_ name: String) -> Double? {
            guard let raw = request.uri.queryParameters[Substring(name)] else { return nil }
            guard let value = Double(String(raw)), value.isFinite else {
                errors.append(.init(field: name, message: "must be a number"))
                return nil
            }
            return value
        }
        let lat = number("lat"), lng = number("lng"), radius = number("radiusKm")
        if request.uri.queryParameters["lat"] == nil { errors.append(.init(field: "lat", message: "is required")) }
        if request.uri.queryParameters["lng"] == nil { errors.append(.init(field: "lng", message: "is required")) }
        if let lat, let lng { errors += FieldRules.coordinates(Coordinates(lat: lat, lng: lng), field: "") }
        if let radius, !(radius > 0 && radius <= SearchArea.maxRadiusKm) {
            errors.append(.init(field: "radiusKm", message: "must be above 0 and at most \(Int(SearchArea.maxRadiusKm))"))
        }
        try FieldRules.require(errors)
        return SearchArea(center: Coordinates(lat: lat!, lng: lng!), radiusKm: radius ?? SearchArea.defaultRadiusKm)
    }

    static func filter(_ request: Request, games: Bool) throws -> PlaceFilter {
        var filter = PlaceFilter(
            sport: try request.query("sport", as: Sport.self), skill: try request.query("skill", as: Skill.self),
            ageGroup: try request.query("ageGroup", as: AgeGroup.self), gender: try request.query("gender", as: Gender.self))
        guard games else { return filter }
        filter.from = try time(request, "from")
        filter.to = try time(request, "to")
        if let from = filter.from, let to = filter.to, from > to { throw CommonError.invalid("to", "must not be before from") }
        if let raw = request.uri.queryParameters["needsPlayers"] {
            guard let value = Bool(String(raw)) else { throw CommonError.invalid("needsPlayers", "must be true or false") }
            filter.needsPlayers = value
        }
        return filter
    }

    private static func time(_ request: Request, _ name: String) throws -> Date? {
        guard let raw = request.uri.queryParameters[Substring(name)] else { return nil }
        guard let date = HuddleJSON.parseRFC3339(String(raw)) else {
            throw CommonError.invalid(name, "must be an RFC 3339 time such as 2026-11-22T18:30:00Z")
        }
        return date
    }
}
