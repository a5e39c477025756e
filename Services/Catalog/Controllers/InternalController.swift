import Contracts
import Hummingbird
import ServiceKit

/// `/internal/...`: what other services read through `CatalogClient`, and news ingest.
/// Internal callers see everything; they apply the user-facing rules themselves.
struct InternalController {
    let teams: Teams
    let leagues: any LeagueStore
    let places: Places
    let news: News

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let database = teams.database
        routes.get("teams/:id") { _, context in
            let id = try teamID(context)
            guard let team = try await database.read({ sql in try await teams.teams.team(id, viewer: nil, on: sql) }) else {
                throw CommonError.notFound("No team with id \(id).")
            }
            return JSONResponse(team)
        }
        routes.get("teams/:id/members") { _, context in
            let id = try teamID(context)
            let members = try await database.read { sql in
                guard try await teams.teams.team(id, viewer: nil, on: sql) != nil else { throw CommonError.notFound("No team with id \(id).") }
                return try await teams.teams.memberships(of: id, on: sql)
            }
            return JSONResponse(Page(items: members, nextCursor: nil))
        }
        routes.get("teams/:id/members/:userId") { _, context in
            let id = try teamID(context)
            let user = try context.parameters.id("userId", as: UserID.self, missing: "No such player.")
            guard let role = try await database.read({ sql in try await teams.teams.membership(of: user, in: id, on: sql) }) else {
                throw CommonError.notFound("\(user) has no standing with team \(id).")
            }
            return JSONResponse(TeamMembership(teamId: id, userId: user, role: role))
        }
        routes.get("leagues/:id") { _, context in
            let id = try context.parameters.id(as: LeagueID.self, missing: "No such league.")
            guard let league = try await database.read({ sql in try await leagues.league(id, on: sql) }) else {
                throw CommonError.notFound("No league with id \(id).")
            }
            return JSONResponse(league)
        }
        routes.get("leagues/:id/teams") { _, context in
            let id = try context.parameters.id(as: LeagueID.self, missing: "No such league.")
            let found = try await database.read { sql in
                guard try await leagues.league(id, on: sql) != nil else { throw CommonError.notFound("No league with id \(id).") }
                return try await teams.teams.teams(ids: try await leagues.teamIDs(in: id, on: sql), viewer: nil, on: sql)
            }
            return JSONResponse(Page(items: found, nextCursor: nil))
        }
        routes.get("courses/:id") { _, context in
            JSONResponse(try await places.course(try context.parameters.id(as: CourseID.self, missing: "No such course.")))
        }
        // Full snapshots, page by page, for a read model rebuilding itself (search).
        routes.get("snapshots/teams") { request, _ in JSONResponse(try await teams.listed(page: try PageRequest(request))) }
        routes.get("snapshots/courses") { request, _ in JSONResponse(try await places.courses(try PageRequest(request))) }
        routes.get("snapshots/venues") { request, _ in JSONResponse(try await places.venues(try PageRequest(request))) }
        routes.post("news") { request, context in
            JSONResponse(try await news.ingest(try await request.decodeJSON(NewsIngestRequest.self, context: context)))
        }
        return routes
    }

    private func teamID(_ context: HuddleRequestContext) throws -> TeamID {
        try context.parameters.id(as: TeamID.self, missing: "No such team.")
    }
}
