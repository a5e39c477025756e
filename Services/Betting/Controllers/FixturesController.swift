import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/betting/fixtures...`: public.
struct FixturesController: Controller {
    let fixtures: Fixtures
    let today: @Sendable () -> Date

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.fixtures, use: listFixtures)
        router.on(BettingAPI.fixture, use: fixture)
    }

    /// `GET /v1/betting/fixtures`
    @Sendable func listFixtures(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Fixture> {
        let day = try request.query(BettingAPI.fixturesDay) ?? CalendarDay(containing: today())
        return try await fixtures.list(kickoff: day.start..<day.next.start)
    }

    /// `GET /v1/betting/fixtures/{id}`
    @Sendable func fixture(_ request: Request, _ context: HuddleRequestContext) async throws -> Fixture {
        try await fixtures.fixture(try context.parameters.id(MatchID.self, naming: "fixture"))

    }
}
