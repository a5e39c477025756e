import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/teams/...`. Every route needs a signed-in user; `Teams` enforces privacy and roles.
struct TeamsController: Controller {
    let teams: Teams

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.createTeam, use: createTeam)
        router.on(CatalogAPI.teams, conditional: listTeams)
        router.on(CatalogAPI.team, conditional: team)
        let manager: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await teams.requireManager(of: try $0.parameters.id(TeamID.self), user: $0.userID)
        }
        router.on(CatalogAPI.updateTeam, authorizing: manager, use: updateTeam)
        router.on(CatalogAPI.deleteTeam, use: deleteTeam)
        router.on(CatalogAPI.members, conditional: members)
        router.on(CatalogAPI.joinTeam, use: joinTeam)
        router.on(CatalogAPI.inviteToTeam, authorizing: manager, use: inviteToTeam)
        router.on(CatalogAPI.approveTeamRequest, use: approveTeamRequest)
        router.on(CatalogAPI.declineTeamRequest, use: declineTeamRequest)
        router.on(CatalogAPI.removeMember, use: removeMember)
    }

    /// `POST /v1/teams`
    @Sendable func createTeam(_ body: CreateTeamRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Team {
        try await teams.create(body, by: context.userID)
    }

    /// `GET /v1/teams`
    @Sendable func listTeams(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<Team>> {
        let page = try await list(request, context)
        return Versioned(page, parts: try await teams.tagParts(of: page.items) + [page.nextCursor ?? ""])
    }

    /// `GET /v1/teams/{id}`
    @Sendable func team(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Team> {
        let team = try await teams.team(
            try context.parameters.id(TeamID.self), viewer: context.userID, from: try request.query(Query.position))
        return Versioned(team, parts: try await teams.tagParts(of: [team]), maxAgeSeconds: 60)
    }

    /// `PATCH /v1/teams/{id}`
    @Sendable func updateTeam(_ body: UpdateTeamRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Team {
        try await teams.update(try context.parameters.id(TeamID.self), with: body, by: context.userID)
    }

    /// `DELETE /v1/teams/{id}`
    @Sendable func deleteTeam(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await teams.delete(try context.parameters.id(TeamID.self), by: context.userID)
        return NoContent()
    }

    /// `GET /v1/teams/{id}/members`
    /// The members' names come from auth, which keeps no version the tag could name: they are parts of it.
    @Sendable func members(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<TeamMember>> {
        let id = try context.parameters.id(TeamID.self)
        let members = try await teams.roster(id, viewer: context.userID, requestID: context.requestID)
        return Versioned(
            Page(items: members, nextCursor: nil),
            parts: try await teams.tagParts(ofTeams: [id]) + members.map { "\($0.userId)=\($0.name)" })
    }

    /// `POST /v1/teams/{id}/join`
    @Sendable func joinTeam(_ request: Request, _ context: AuthenticatedContext) async throws -> Team {
        try await teams.join(try context.parameters.id(TeamID.self), user: context.userID)
    }

    /// `POST /v1/teams/{id}/invites`
    @Sendable func inviteToTeam(_ body: InviteRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> InviteResult {
        try await teams.invite(body.userIds, to: try context.parameters.id(TeamID.self), by: context.userID)
    }

    /// `POST /v1/teams/{id}/requests/{userId}/approve`
    @Sendable func approveTeamRequest(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await teams.decide(
            try context.parameters.id(TeamID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: true,
            by: context.userID)
        return NoContent()
    }

    /// `POST /v1/teams/{id}/requests/{userId}/decline`
    @Sendable func declineTeamRequest(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await teams.decide(
            try context.parameters.id(TeamID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: false,
            by: context.userID)
        return NoContent()
    }

    /// `DELETE /v1/teams/{id}/members/{userId}`
    @Sendable func removeMember(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await teams.remove(
            try context.parameters.id(UserID.self, at: "userId"), from: try context.parameters.id(TeamID.self), by: context.userID)
        return NoContent()
    }

    /// `?member=me` lists my teams; otherwise `?q=` and `?sport=` search public and protected teams.
    private func list(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Team> {
        try await teams.list(
            mine: try request.query(CatalogAPI.teamMember) == .me, text: try request.query(CatalogAPI.teamText),
            sport: try request.query(Query.sport), viewer: context.userID, from: try request.query(Query.position),
            page: try PageRequest(request))
    }
}
