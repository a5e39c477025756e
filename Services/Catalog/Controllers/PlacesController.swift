import Contracts
import Hummingbird
import ServiceKit

/// `/v1/sports`, `/v1/courses/...` and `/v1/venues/...`. Reading needs no account; changing needs
/// the administrator role from the access token.
struct PlacesController: Controller {
    let places: Places
    let weather: WeatherProvider

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.sports) { _, _ in
            Page(items: Sport.allCases.map { SportInfo(id: $0, name: $0.displayName) }, nextCursor: nil)
        }
        router.on(CatalogAPI.courses) { request, _ in try await places.courses(try PageRequest(request)) }
        router.on(CatalogAPI.course) { _, context in try await places.course(try context.parameters.courseID()) }
        router.on(CatalogAPI.navigation) { request, context in
            let position = Coordinates(lat: try required(request, "lat"), lng: try required(request, "lng"))
            try FieldRules.require(FieldRules.coordinates(position, field: ""))
            let course = try await places.course(try context.parameters.courseID())
            let hole = try request.query("hole", as: Int.self) ?? 1
            guard let navigation = course.navigation(from: position, hole: hole) else {
                throw CommonError.invalid("hole", "must be a hole of this course (1–\(course.holeCount))")
            }
            return navigation
        }
        router.on(CatalogAPI.weather) { _, context in
            try await weather.current(for: try await places.course(try context.parameters.courseID()))
        }
        router.on(CatalogAPI.createCourse) { body, _, context in try await places.createCourse(body, by: context.identity) }
        router.on(CatalogAPI.saveHole) { body, _, context in
            let id = try context.parameters.courseID()
            guard let number = context.parameters.get("number", as: Int.self) else {
                throw CommonError.invalid("number", "must be a hole number")
            }
            return try await places.saveHole(number, body, in: id, by: context.identity)
        }
        router.on(CatalogAPI.venues) { request, _ in try await places.venues(try PageRequest(request)) }
        router.on(CatalogAPI.venue) { _, context in try await places.venue(try context.parameters.venueID()) }
        router.on(CatalogAPI.createVenue) { body, _, context in try await places.createVenue(body, by: context.identity) }
    }

    private func required(_ request: Request, _ name: String) throws -> Double {
        guard let value = try request.query(name, as: Double.self) else { throw CommonError.invalid(name, "is required") }
        return value
    }
}

extension Sport {
    var displayName: String {
        switch self {
        case .soccer: "Soccer"
        case .volleyball: "Volleyball"
        case .softball: "Softball"
        case .basketball: "Basketball"
        case .football: "American football"
        case .discGolf: "Disc golf"
        case .cricket: "Cricket"
        case .tennis: "Tennis"
        case .hockey: "Hockey"
        case .other: "Other"
        }
    }
}
