import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/leagues/...`: signed-in users; the creator manages the league.
struct LeaguesController: Controller {
    let leagues: Leagues

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.createLeague) { body, _, context in try await leagues.create(body, by: context.userID) }
        router.on(CatalogAPI.leagues) { request, context in
            try await leagues.list(
                sport: try request.query(Query.sport), viewer: context.userID, page: try PageRequest(request))
        }
        router.on(CatalogAPI.league) { _, context in
            try await leagues.league(try context.parameters.id(LeagueID.self), viewer: context.userID)
        }
        router.on(CatalogAPI.leagueTeams) { request, context in
            let teams = try await leagues.teams(
                of: try context.parameters.id(LeagueID.self), viewer: context.userID, from: try request.query(Query.position))
            return Page(items: teams, nextCursor: nil)
        }
        router.on(
            CatalogAPI.addLeagueTeam,
            authorizing: { try await leagues.requireManager(of: try $0.parameters.id(LeagueID.self), user: $0.userID) }
        ) {
            body, _, context in
            try await leagues.add(body.teamId, to: try context.parameters.id(LeagueID.self), by: context.userID)
        }
    }
}
