import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/teams/...`. Every route needs a signed-in user; `Teams` enforces privacy and roles.
struct TeamsController: Controller {
    let teams: Teams

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.createTeam) { body, _, context in try await teams.create(body, by: context.userID) }
        router.on(CatalogAPI.teams) { request, context in try await list(request, context) }
        router.on(CatalogAPI.team) { _, context in try await teams.team(try context.parameters.teamID(), viewer: context.userID) }
        router.on(CatalogAPI.updateTeam) { body, _, context in
            try await teams.update(try context.parameters.teamID(), with: body, by: context.userID)
        }
        router.on(CatalogAPI.deleteTeam) { _, context in
            try await teams.delete(try context.parameters.teamID(), by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.members) { _, context in
            let members = try await teams.roster(try context.parameters.teamID(), viewer: context.userID, requestID: context.requestID)
            return Page(items: members, nextCursor: nil)
        }
        router.on(CatalogAPI.joinTeam) { _, context in try await teams.join(try context.parameters.teamID(), user: context.userID) }
        router.on(CatalogAPI.inviteToTeam) { body, _, context in
            try await teams.invite(body.userIds, to: try context.parameters.teamID(), by: context.userID)
        }
        router.on(CatalogAPI.approveTeamRequest) { _, context in
            try await teams.decide(
                try context.parameters.teamID(), request: try context.parameters.userID(), approve: true, by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.declineTeamRequest) { _, context in
            try await teams.decide(
                try context.parameters.teamID(), request: try context.parameters.userID(), approve: false, by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.removeMember) { _, context in
            try await teams.remove(try context.parameters.userID(), from: try context.parameters.teamID(), by: context.userID)
            return NoContent()
        }
    }

    /// `?member=me` lists my teams; otherwise `?q=` and `?sport=` search public and protected teams.
    private func list(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Team> {
        let member = request.uri.queryParameters["member"].map(String.init)
        if let member, member != "me" { throw CommonError.invalid("member", "must be 'me'") }
        let text = try request.text("q", TeamSearch.text)
        return try await teams.list(
            mine: member != nil, text: text, sport: try request.query("sport", as: Sport.self), viewer: context.userID,
            page: try PageRequest(request))
    }
}
