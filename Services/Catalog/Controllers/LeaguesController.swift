import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/leagues/...`: signed-in users; the creator manages the league.
struct LeaguesController: Controller {
    let leagues: Leagues

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.createLeague, use: createLeague)
        router.on(CatalogAPI.leagues, use: listLeagues)
        router.on(CatalogAPI.league, use: league)
        router.on(CatalogAPI.leagueTeams, use: leagueTeams)
        router.on(
            CatalogAPI.addLeagueTeam,
            authorizing: { try await leagues.requireManager(of: try $0.parameters.id(LeagueID.self), user: $0.userID) },
            either: addLeagueTeam)
        router.on(CatalogAPI.deleteLeague, use: deleteLeague)
        router.on(CatalogAPI.acceptLeague, use: acceptLeague)
        router.on(CatalogAPI.declineLeague, use: declineLeague)
        router.on(
            CatalogAPI.updateLeague,
            authorizing: {
                try await leagues.requireManager(
                    of: try $0.parameters.id(LeagueID.self), user: $0.userID, refusal: "Only the league's manager changes it.")
            },
            use: updateLeague)
    }

    /// `PATCH /v1/leagues/{id}`
    @Sendable func updateLeague(_ body: UpdateLeagueRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> League {
        try await leagues.update(try context.parameters.id(LeagueID.self), with: body, by: context.userID)
    }

    /// `POST /v1/leagues/{id}/teams`
    @Sendable func addLeagueTeam(_ body: AddLeagueTeamRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> Answer<League>
    {
        try await leagues.add(body.teamId, to: try context.parameters.id(LeagueID.self), by: context.userID)
    }

    /// `DELETE /v1/leagues/{id}`
    @Sendable func deleteLeague(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await leagues.delete(try context.parameters.id(LeagueID.self), by: context.userID)
        return NoContent()
    }

    /// `POST /v1/teams/{id}/leagues/{leagueId}/accept`
    @Sendable func acceptLeague(_ request: Request, _ context: AuthenticatedContext) async throws -> League {
        try await leagues.accept(
            try context.parameters.id(LeagueID.self, at: "leagueId"), for: try context.parameters.id(TeamID.self), by: context.userID)
    }

    /// `POST /v1/teams/{id}/leagues/{leagueId}/decline`
    @Sendable func declineLeague(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await leagues.decline(
            try context.parameters.id(LeagueID.self, at: "leagueId"), for: try context.parameters.id(TeamID.self), by: context.userID)
        return NoContent()
    }

    /// `POST /v1/leagues`
    @Sendable func createLeague(_ body: CreateLeagueRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> League {
        try await leagues.create(body, by: context.userID)
    }

    /// `GET /v1/leagues`
    @Sendable func listLeagues(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<League> {
        try await leagues.list(
            sport: try request.query(Query.sport), viewer: context.userID, page: try PageRequest(request))
    }

    /// `GET /v1/leagues/{id}`
    @Sendable func league(_ request: Request, _ context: AuthenticatedContext) async throws -> League {
        try await leagues.league(try context.parameters.id(LeagueID.self), viewer: context.userID)
    }

    /// `GET /v1/leagues/{id}/teams`
    @Sendable func leagueTeams(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Team> {
        let teams = try await leagues.teams(
            of: try context.parameters.id(LeagueID.self), viewer: context.userID, from: try request.query(Query.position))
        return Page(items: teams, nextCursor: nil)
    }
}
