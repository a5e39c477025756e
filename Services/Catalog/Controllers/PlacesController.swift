import Contracts
import Hummingbird
import ServiceHTTP

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
        router.on(CatalogAPI.course) { _, context in try await places.course(try context.parameters.id(CourseID.self)) }
        router.on(CatalogAPI.navigation) { request, context in
            let position = try request.query(Query.place)
            let course = try await places.course(try context.parameters.id(CourseID.self))
            let hole = try request.query(CatalogAPI.navigationHole)
            guard let navigation = course.navigation(from: position, hole: hole) else {
                throw CommonError.invalid("hole", "must be a hole of this course (1–\(course.holeCount))")
            }
            return navigation
        }
        router.on(CatalogAPI.weather) { _, context in
            try await weather.current(for: try await places.course(try context.parameters.id(CourseID.self)))
        }
        let administrator: @Sendable (AuthenticatedContext) async throws -> Void = { try places.requireAdministrator($0.identity) }
        router.on(CatalogAPI.createCourse, authorizing: administrator) { body, _, context in
            try await places.createCourse(body, by: context.identity)
        }
        router.on(CatalogAPI.saveHole, authorizing: administrator) { body, _, context in
            try await places.saveHole(
                try context.parameters.integer(at: "number"), body, in: try context.parameters.id(CourseID.self), by: context.identity)
        }
        router.on(CatalogAPI.venues) { request, _ in try await places.venues(try PageRequest(request)) }
        router.on(CatalogAPI.venue) { _, context in try await places.venue(try context.parameters.id(VenueID.self)) }
        router.on(CatalogAPI.createVenue, authorizing: administrator) { body, _, context in
            try await places.createVenue(body, by: context.identity)
        }
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
