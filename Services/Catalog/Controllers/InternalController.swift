import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

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

/// `/internal/moderation/...` of catalog: a team or league as a reporter sees it (its name, and its
/// manager as the one an action is against).
struct CatalogModerationController: Controller {
    let teams: Teams
    let leagues: Leagues

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .catalog)) { request, context in
            let viewer = try request.query(ModerationAPI.Internal.viewer)
            switch try context.parameters.subjectType(heldBy: .catalog) {
            case .league:
                let league = try await leagues.league(try context.parameters.id(LeagueID.self), viewer: viewer)
                return SubjectSnapshot(
                    content: SubjectContent(
                        type: .league, id: SubjectID(league.id.uuid), ownerId: league.managerId, ownerName: nil, text: league.name,
                        at: league.createdAt))
            default:
                let team = try await teams.team(try context.parameters.id(TeamID.self), viewer: viewer)
                return SubjectSnapshot(
                    content: SubjectContent(
                        type: .team, id: SubjectID(team.id.uuid), ownerId: team.managerId, ownerName: nil, text: team.name,
                        at: team.createdAt))
            }
        }
    }
}
