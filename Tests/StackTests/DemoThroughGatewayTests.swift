import Contracts
import Foundation
import Logging
import ServiceKitTesting
import Testing
@testable import HuddleModules

/// `huddle demo --url`: the demo seeded into a running stack through its gateway only.
@Suite("Demo data for any stack", .serialized)
struct DemoThroughGatewayTests {
    static let logger = Logger(label: "demo-test")

    @Test("seeds accounts, places, news, teams and games through the gateway, and adds nothing the second time")
    func seedsOnce() async throws {
        try await StackTests.withStack(store: .sqlite, adminEmail: DemoData.administrator.email) { gateway in
            let url = gateway.baseURL
            #expect(await DemoSeed.run(auth: url, catalog: url, games: url, logger: Self.logger))
            #expect(await DemoSeed.run(auth: url, catalog: url, games: url, logger: Self.logger))

            let courses = try await gateway.get("/v1/courses?limit=100").decode(Page<Course>.self)
            #expect(courses.items.count == DemoCatalog.parks.count)
            let venues = try await gateway.get("/v1/venues?limit=100").decode(Page<Venue>.self)
            #expect(venues.items.count == DemoCatalog.venues.count)
            let news = try await gateway.get("/v1/news?limit=100").decode(Page<NewsArticle>.self)
            #expect(news.items.count == DemoCatalog.news.count)

            let bruno = try await gateway.post(
                "/v1/auth/login", json: LoginRequest(email: DemoData.bruno.email, password: DemoData.bruno.password)
            ).decode(Session.self)
            let teams = try await gateway.get("/v1/teams?member=me", token: bruno.accessToken).decode(Page<Team>.self)
            #expect(!teams.items.isEmpty)
            let games = try await gateway.get("/v1/games?scope=mine", token: bruno.accessToken).decode(Page<Game>.self)
            #expect(!games.items.isEmpty)
            // Profiles reach search through auth's events.
            var found: [String] = []
            for _ in 0..<200 where found.isEmpty {
                found = try await gateway.get("/v1/search/players?q=chloe", token: bruno.accessToken).decode(Page<PlayerResult>.self)
                    .items.map(\.name)
                if found.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(found == [DemoData.chloe.name])
        }
    }

    @Test("a stack where the demo administrator is not an administrator is reported as incomplete")
    func withoutAdministrator() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let url = gateway.baseURL
            let complete = await DemoSeed.run(auth: url, catalog: url, games: url, logger: Self.logger)
            #expect(!complete)
            let courses = try await gateway.get("/v1/courses").decode(Page<Course>.self)
            #expect(courses.items.isEmpty)
        }
    }
}
