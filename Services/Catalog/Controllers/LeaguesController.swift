import Contracts
import Hummingbird
import ServiceKit

/// `/v1/leagues/...`: signed-in users; the creator manages the league.
struct LeaguesController {
    let leagues: Leagues

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let signedIn = routes.authenticated()
        signedIn.post { request, context in
            let body = try await request.decodeJSON(CreateLeagueRequest.self, context: context)
            return JSONResponse(try await leagues.create(body, by: context.userID), status: .created)
        }
        signedIn.get { request, context in
            JSONResponse(
                try await leagues.list(
                    sport: try request.query("sport", as: Sport.self), viewer: context.userID, page: try PageRequest(request)))
        }
        signedIn.get(":id") { _, context in JSONResponse(try await leagues.league(try leagueID(context), viewer: context.userID)) }
        signedIn.get(":id/teams") { _, context in
            JSONResponse(Page(items: try await leagues.teams(of: try leagueID(context), viewer: context.userID), nextCursor: nil))
        }
        signedIn.post(":id/teams") { request, context in
            let body = try await request.decodeJSON(AddLeagueTeamRequest.self, context: context)
            return JSONResponse(try await leagues.add(body.teamId, to: try leagueID(context), by: context.userID))
        }
        return routes
    }

    private func leagueID(_ context: AuthenticatedContext) throws -> LeagueID {
        try context.parameters.id(as: LeagueID.self, missing: "No league with id \(context.parameters.get("id") ?? "").")
    }
}
