import AuthService
import CatalogService
import Contracts
import Foundation
import HuddleEffects
import ServiceHTTP
import ServiceKitTesting

/// Auth and catalog on port 0, each with a fresh store; `admin@example.com` holds the administrator role.
struct CatalogHarness {
    static let adminEmail = "admin@example.com"
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.catalog,
    ]

    let stack: TestStack
    var catalog: TestClient { stack.client(.catalog) }
    var auth: TestClient { stack.client(.auth) }

    static func with<T>(
        store: TestStore = .sqlite, config: [String: String] = [:], directory: [ServiceModule: String] = [:],
        effects: Effects = .system, body: (CatalogHarness) async throws -> T
    ) async throws -> T {
        var settings = ["auth.admin.emails": adminEmail, "catalog.events.retry.max.ms": "200"]
        settings.merge(config) { _, new in new }
        return try await TestStack.with(builders, store: store, config: settings, directory: directory, effects: effects) { stack in
            try await body(CatalogHarness(stack: stack))
        }
    }

    func player(_ name: String = "Test Player") async throws -> Session { try await auth.register(name: name) }
    func admin() async throws -> Session { try await auth.register(name: "Ada Admin", email: Self.adminEmail) }

    func createTeam(_ token: String, name: String = "Tallinn Spikers", privacy: Privacy = .public, sport: Sport = .volleyball)
        async throws -> Team
    {
        let response = try await catalog.call(
            CatalogAPI.createTeam, body: Self.team(name: name, privacy: privacy, sport: sport), token: token)
        guard response.status == 201 else { throw UnexpectedResponse(response: response) }
        return try response.decode(Team.self)
    }

    static func team(name: String = "Tallinn Spikers", privacy: Privacy = .public, sport: Sport = .volleyball) -> CreateTeamRequest {
        CreateTeamRequest(
            name: name, sport: sport, privacy: privacy, location: Location(lat: 59.437, lng: 24.7536, address: "Tallinn"),
            ageGroup: .adult, gender: .coed, skill: .intermediate)
    }

    /// A course made by the administrator (`CourseTests.course()`).
    func course() async throws -> Course {
        let admin = try await admin()
        return try await catalog.value(CatalogAPI.createCourse, body: CourseTests.course(), token: admin.accessToken)
    }
}
