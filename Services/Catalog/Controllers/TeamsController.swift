import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/teams/...`. Every route needs a signed-in user; `Teams` enforces privacy and roles.
struct TeamsController {
    let teams: Teams

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let signedIn = routes.authenticated()
        signedIn.post { request, context in
            let body = try await request.decodeJSON(CreateTeamRequest.self, context: context)
            return JSONResponse(try await teams.create(body, by: context.userID), status: .created)
        }
        signedIn.get { request, context in try await list(request, context) }
        signedIn.get(":id") { _, context in JSONResponse(try await teams.team(try teamID(context), viewer: context.userID)) }
        signedIn.patch(":id") { request, context in
            let body = try await request.decodeJSON(UpdateTeamRequest.self, context: context)
            return JSONResponse(try await teams.update(try teamID(context), with: body, by: context.userID))
        }
        signedIn.delete(":id") { _, context in
            try await teams.delete(try teamID(context), by: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.get(":id/members") { _, context in
            let members = try await teams.roster(try teamID(context), viewer: context.userID, requestID: context.requestID)
            return JSONResponse(Page(items: members, nextCursor: nil))
        }
        signedIn.post(":id/join") { _, context in JSONResponse(try await teams.join(try teamID(context), user: context.userID)) }
        signedIn.post(":id/invites") { request, context in
            let body = try await request.decodeJSON(InviteRequest.self, context: context)
            return JSONResponse(try await teams.invite(body.userIds, to: try teamID(context), by: context.userID))
        }
        signedIn.post(":id/requests/:userId/approve") { _, context in
            try await teams.decide(try teamID(context), request: try userID(context), approve: true, by: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.post(":id/requests/:userId/decline") { _, context in
            try await teams.decide(try teamID(context), request: try userID(context), approve: false, by: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.delete(":id/members/:userId") { _, context in
            try await teams.remove(try userID(context), from: try teamID(context), by: context.userID)
            return HTTPResponse.Status.noContent
        }
        return routes
    }

    /// `?member=me` lists my teams; otherwise `?q=` and `?sport=` search public and protected teams.
    private func list(_ request: Request, _ context: AuthenticatedContext) async throws -> JSONResponse<Page<Team>> {
        let member = request.uri.queryParameters["member"].map(String.init)
        if let member, member != "me" { throw CommonError.invalid("member", "must be 'me'") }
        let text = request.uri.queryParameters["q"].map { $0.trimmingCharacters(in: .whitespaces) }
        if let text, text.count > 80 { throw CommonError.invalid("q", "must be at most 80 characters") }
        return JSONResponse(
            try await teams.list(
                mine: member != nil, text: text, sport: try request.query("sport", as: Sport.self), viewer: context.userID,
                page: try PageRequest(request)))
    }

    private func teamID(_ context: AuthenticatedContext) throws -> TeamID {
        try context.parameters.id(as: TeamID.self, missing: "No team with id \(context.parameters.get("id") ?? "").")
    }

    private func userID(_ context: AuthenticatedContext) throws -> UserID {
        try context.parameters.id("userId", as: UserID.self, missing: "No player with id \(context.parameters.get("userId") ?? "").")
    }
}
