import Contracts
import Hummingbird
import ServiceKit

/// `/v1/sports`, `/v1/courses/...` and `/v1/venues/...`. Reading needs no account; changing needs
/// the administrator role from the access token.
struct PlacesController {
    let places: Places
    let weather: WeatherProvider

    func add(to router: Router<HuddleRequestContext>) {
        router.get("v1/sports") { _, _ in
            JSONResponse(Page(items: Sport.allCases.map { SportInfo(id: $0, name: $0.displayName) }, nextCursor: nil))
        }
        router.addRoutes(courses, atPath: "v1/courses")
        router.addRoutes(venues, atPath: "v1/venues")
    }

    private var courses: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.get { request, _ in JSONResponse(try await places.courses(try PageRequest(request))) }
        routes.get(":id") { _, context in JSONResponse(try await places.course(try courseID(context.parameters))) }
        routes.get(":id/navigation") { request, context in
            let position = Coordinates(lat: try required(request, "lat"), lng: try required(request, "lng"))
            try FieldRules.require(FieldRules.coordinates(position, field: ""))
            let course = try await places.course(try courseID(context.parameters))
            let hole = try request.query("hole", as: Int.self) ?? 1
            guard let navigation = course.navigation(from: position, hole: hole) else {
                throw CommonError.invalid("hole", "must be a hole of this course (1–\(course.holeCount))")
            }
            return JSONResponse(navigation)
        }
        routes.get(":id/weather") { _, context in
            JSONResponse(try await weather.current(for: try await places.course(try courseID(context.parameters))))
        }
        let signedIn = routes.authenticated()
        signedIn.post { request, context in
            let body = try await request.decodeJSON(CreateCourseRequest.self, context: context)
            return JSONResponse(try await places.createCourse(body, by: context.identity), status: .created)
        }
        signedIn.put(":id/holes/:number") { request, context in
            let id = try courseID(context.parameters)
            guard let number = context.parameters.get("number", as: Int.self) else {
                throw CommonError.invalid("number", "must be a hole number")
            }
            let body = try await request.decodeJSON(UpdateHoleRequest.self, context: context)
            return JSONResponse(try await places.saveHole(number, body, in: id, by: context.identity))
        }
        return routes
    }

    private var venues: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.get { request, _ in JSONResponse(try await places.venues(try PageRequest(request))) }
        routes.get(":id") { _, context in
            JSONResponse(try await places.venue(try context.parameters.id(as: VenueID.self, missing: "No venue with id \(context.parameters.get("id") ?? "").")))
        }
        routes.authenticated().post { request, context in
            let body = try await request.decodeJSON(CreateVenueRequest.self, context: context)
            return JSONResponse(try await places.createVenue(body, by: context.identity), status: .created)
        }
        return routes
    }

    private func courseID(_ parameters: Parameters) throws -> CourseID {
        try parameters.id(as: CourseID.self, missing: "No course with id \(parameters.get("id") ?? "").")
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
