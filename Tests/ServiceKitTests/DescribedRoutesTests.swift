import Contracts
import Foundation
import Hummingbird
import ServerContracts
import ServiceHTTP
import ServiceKit
import Testing

/// The check `ServiceSkeleton.application()` runs before a module may start.
@Suite("Routes and descriptions agree")
struct DescribedRoutesTests {
    @Test("a route no description names, and a described operation without a handler, are both reported")
    func mismatchesAreReported() {
        let router = Router(context: HuddleRequestContext.self)
        router.on(SearchAPI.players) { _, _ in Page<PlayerResult>(items: [], nextCursor: nil) }
        router.get("v1/search/secret") { _, _ in "not described" }
        let (undescribed, unhandled) = router.undescribedRoutes(of: .search)
        #expect(undescribed == ["GET /v1/search/secret"])
        #expect(unhandled.contains(SearchAPI.games.operation.name))
        #expect(!unhandled.contains(SearchAPI.players.operation.name))
    }

    @Test("a router with a handler for every described operation of its module passes")
    func completeRouterPasses() {
        let router = Router(context: HuddleRequestContext.self)
        router.on(SearchAPI.games) { _, _ in Page<Nearby<Game>>(items: [], nextCursor: nil) }
        router.on(SearchAPI.teams) { _, _ in Page<Nearby<TeamResult>>(items: [], nextCursor: nil) }
        router.on(SearchAPI.courses) { _, _ in Page<Nearby<Course>>(items: [], nextCursor: nil) }
        router.on(SearchAPI.venues) { _, _ in Page<Nearby<Venue>>(items: [], nextCursor: nil) }
        router.on(SearchAPI.players) { _, _ in Page<PlayerResult>(items: [], nextCursor: nil) }
        router.on(SearchAPI.Internal.reindex) { _, _ in ReindexResult(games: 0, teams: 0, courses: 0, venues: 0, players: 0) }
        router.on(EventsAPI.deliver(to: .search)) { _, _, _ in NoContent() }
        router.on(EventsAPI.applied(by: .search)) { _, _ in AppliedEvent(eventId: EventID(), type: "", appliedAt: Date()) }
        router.on(PersonalDataAPI.export(of: .search)) { _, _ in PersonalData() }
        let (undescribed, unhandled) = router.undescribedRoutes(of: .search)
        #expect(undescribed.isEmpty && unhandled.isEmpty)
    }
}
