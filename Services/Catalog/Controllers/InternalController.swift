import Contracts
import Hummingbird
import ServiceKit

/// `/internal/...` of catalog: what other services read through `CatalogClient`, snapshots for
/// read models, and news ingest.
struct CatalogInternalController: Controller {
    let teams: Teams
    let leagues: Leagues
    let places: Places
    let news: News

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.Internal.team) { _, context in try await teams.anyTeam(try context.parameters.id(TeamID.self)) }
        router.on(CatalogAPI.Internal.members) { _, context in try await teams.memberships(of: try context.parameters.id(TeamID.self)) }
        router.on(CatalogAPI.Internal.membership) { _, context in
            try await teams.membership(of: try context.parameters.id(UserID.self, at: "userId"), in: try context.parameters.id(TeamID.self))
        }
        router.on(CatalogAPI.Internal.league) { _, context in try await leagues.anyLeague(try context.parameters.id(LeagueID.self)) }
        router.on(CatalogAPI.Internal.leagueTeams) { _, context in try await leagues.allTeams(of: try context.parameters.id(LeagueID.self))
        }
        router.on(CatalogAPI.Internal.course) { _, context in try await places.course(try context.parameters.id(CourseID.self)) }
        router.on(CatalogAPI.Internal.teamSnapshot) { request, _ in try await teams.listed(page: try PageRequest(request)) }
        router.on(CatalogAPI.Internal.courseSnapshot) { request, _ in try await places.courses(try PageRequest(request)) }
        router.on(CatalogAPI.Internal.venueSnapshot) { request, _ in try await places.venues(try PageRequest(request)) }
        router.on(CatalogAPI.Internal.ingestNews) { body, _, _ in try await news.ingest(body) }
    }
}
