import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/sports`, `/v1/courses/...` and `/v1/venues/...`. Reading needs no account; changing needs
/// the administrator role from the access token.
struct PlacesController: Controller {
    let places: Places
    let weather: WeatherProvider

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.sports, use: sports)
        router.on(CatalogAPI.courses, use: courses)
        router.on(CatalogAPI.course, conditional: course)
        router.on(CatalogAPI.navigation, use: navigation)
        router.on(CatalogAPI.weather, use: getWeather)
        let administrator: @Sendable (AuthenticatedContext) async throws -> Void = { try places.requireAdministrator($0.identity) }
        router.on(CatalogAPI.createCourse, authorizing: administrator, use: createCourse)
        router.on(CatalogAPI.saveHole, authorizing: administrator, use: saveHole)
        router.on(CatalogAPI.updateCourse, authorizing: administrator, use: updateCourse)
        router.on(CatalogAPI.deleteCourse, use: deleteCourse)
        router.on(CatalogAPI.deleteHole, use: deleteHole)
        router.on(CatalogAPI.venues, use: venues)
        router.on(CatalogAPI.venue, use: venue)
        router.on(CatalogAPI.createVenue, authorizing: administrator, use: createVenue)
    }

    /// `GET /v1/sports`
    @Sendable func sports(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<SportInfo> {
        Page(items: Sport.allCases.map { SportInfo(id: $0, name: $0.displayName) }, nextCursor: nil)
    }

    /// `GET /v1/courses`
    @Sendable func courses(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Course> {
        try await places.courses(matching: try request.query(CatalogAPI.courseText), page: try PageRequest(request))
    }

    /// `GET /v1/courses/{id}`
    /// Named by its stored version (its holes' changes raise it), read before the course itself; a
    /// course changes seldom, so a copy may be used for five minutes without asking.
    @Sendable func course(_ request: Request, _ context: HuddleRequestContext) async throws -> Conditional<Course> {
        let id = try context.parameters.id(CourseID.self)
        let version = try await places.version(of: id)
        return Conditional(etag: "\"\(id.description.prefix(8))-\(version)\"", maxAgeSeconds: 300) { try await places.course(id) }
    }

    /// `GET /v1/courses/{id}/navigation`
    @Sendable func navigation(_ request: Request, _ context: HuddleRequestContext) async throws -> Navigation {
        let position = try request.query(Query.place)
        let course = try await places.course(try context.parameters.id(CourseID.self))
        return try course.navigation(from: position, hole: try request.query(CatalogAPI.navigationHole))
    }

    /// `GET /v1/courses/{id}/weather`
    @Sendable func getWeather(_ request: Request, _ context: HuddleRequestContext) async throws -> Weather {
        try await weather.current(for: try await places.course(try context.parameters.id(CourseID.self)))
    }

    /// `POST /v1/courses`
    @Sendable func createCourse(_ body: CreateCourseRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Course {
        try await places.createCourse(body, by: context.identity)
    }

    /// `PUT /v1/courses/{id}/holes/{number}`
    @Sendable func saveHole(_ body: UpdateHoleRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Course {
        try await places.saveHole(
            try context.parameters.integer(at: "number"), body, in: try context.parameters.id(CourseID.self), by: context.identity)
    }

    /// `PATCH /v1/courses/{id}`
    @Sendable func updateCourse(_ body: UpdateCourseRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Course {
        try await places.updateCourse(try context.parameters.id(CourseID.self), with: body, by: context.identity)
    }

    /// `DELETE /v1/courses/{id}`
    @Sendable func deleteCourse(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await places.deleteCourse(try context.parameters.id(CourseID.self), by: context.identity)
        return NoContent()
    }

    /// `DELETE /v1/courses/{id}/holes/{number}`
    @Sendable func deleteHole(_ request: Request, _ context: AuthenticatedContext) async throws -> Course {
        try await places.removeHole(
            try context.parameters.integer(at: "number"), from: try context.parameters.id(CourseID.self), by: context.identity)
    }

    /// `GET /v1/venues`
    @Sendable func venues(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Venue> {
        try await places.venues(try PageRequest(request))
    }

    /// `GET /v1/venues/{id}`
    @Sendable func venue(_ request: Request, _ context: HuddleRequestContext) async throws -> Venue {
        try await places.venue(try context.parameters.id(VenueID.self))
    }

    /// `POST /v1/venues`
    @Sendable func createVenue(_ body: CreateVenueRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Venue {
        try await places.createVenue(body, by: context.identity)
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
