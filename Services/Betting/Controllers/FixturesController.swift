import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/betting/fixtures...`: public.
struct FixturesController: Controller {
    let fixtures: Fixtures
    let today: @Sendable () -> Date

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.fixtures) { request, _ in
            let day = try request.query(BettingAPI.fixturesDay) ?? CalendarDay(containing: today())
            return try await fixtures.list(kickoff: day.start..<day.next.start)
        }
        router.on(BettingAPI.fixture) { _, context in try await fixtures.fixture(try context.parameters.id(MatchID.self, naming: "fixture"))
        }
    }
}
