import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/teams/...`. Every route needs a signed-in user; `Teams` enforces privacy and roles.
struct TeamsController: Controller {
    let teams: Teams

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.createTeam) { body, _, context in try await teams.create(body, by: context.userID) }
        router.on(CatalogAPI.teams) { request, context in try await list(request, context) }
        router.on(CatalogAPI.team) { request, context in
            try await teams.team(try context.parameters.id(TeamID.self), viewer: context.userID, from: try request.query(Query.position))
        }
        let manager: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await teams.requireManager(of: try $0.parameters.id(TeamID.self), user: $0.userID)
        }
        router.on(CatalogAPI.updateTeam, authorizing: manager) { body, _, context in
            try await teams.update(try context.parameters.id(TeamID.self), with: body, by: context.userID)
        }
        router.on(CatalogAPI.deleteTeam) { _, context in
            try await teams.delete(try context.parameters.id(TeamID.self), by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.members) { _, context in
            let members = try await teams.roster(
                try context.parameters.id(TeamID.self), viewer: context.userID, requestID: context.requestID)
            return Page(items: members, nextCursor: nil)
        }
        router.on(CatalogAPI.joinTeam) { _, context in try await teams.join(try context.parameters.id(TeamID.self), user: context.userID) }
        router.on(CatalogAPI.inviteToTeam, authorizing: manager) { body, _, context in
            try await teams.invite(body.userIds, to: try context.parameters.id(TeamID.self), by: context.userID)
        }
        router.on(CatalogAPI.approveTeamRequest) { _, context in
            try await teams.decide(
                try context.parameters.id(TeamID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: true,
                by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.declineTeamRequest) { _, context in
            try await teams.decide(
                try context.parameters.id(TeamID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: false,
                by: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.removeMember) { _, context in
            try await teams.remove(
                try context.parameters.id(UserID.self, at: "userId"), from: try context.parameters.id(TeamID.self), by: context.userID)
            return NoContent()
        }
    }

    /// `?member=me` lists my teams; otherwise `?q=` and `?sport=` search public and protected teams.
    private func list(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Team> {
        try await teams.list(
            mine: try request.query(CatalogAPI.teamMember) == .me, text: try request.query(CatalogAPI.teamText),
            sport: try request.query(Query.sport), viewer: context.userID, from: try request.query(Query.position),
            page: try PageRequest(request))
    }
}
