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
        router.on(CatalogAPI.Internal.team, use: getTeam)
        router.on(CatalogAPI.Internal.members, use: members)
        router.on(CatalogAPI.Internal.membership, use: membership)
        router.on(CatalogAPI.Internal.league, use: getLeague)
        router.on(CatalogAPI.Internal.leagueTeams, use: leagueTeams)
        router.on(CatalogAPI.Internal.course, use: course)
        router.on(CatalogAPI.Internal.venue, use: venue)
        router.on(CatalogAPI.Internal.teamSnapshot, use: teamSnapshot)
        router.on(CatalogAPI.Internal.courseSnapshot, use: courseSnapshot)
        router.on(CatalogAPI.Internal.venueSnapshot, use: venueSnapshot)
        router.on(CatalogAPI.Internal.ingestNews, use: ingestNews)
    }

    /// `GET /internal/teams/{id}`
    @Sendable func getTeam(_ request: Request, _ context: HuddleRequestContext) async throws -> Team {
        try await teams.anyTeam(try context.parameters.id(TeamID.self))
    }

    /// `GET /internal/teams/{id}/members`
    @Sendable func members(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<TeamMembership> {
        try await teams.memberships(of: try context.parameters.id(TeamID.self))
    }

    /// `GET /internal/teams/{id}/members/{userId}`
    @Sendable func membership(_ request: Request, _ context: HuddleRequestContext) async throws -> TeamMembership {
        try await teams.membership(of: try context.parameters.id(UserID.self, at: "userId"), in: try context.parameters.id(TeamID.self))
    }

    /// `GET /internal/leagues/{id}`
    @Sendable func getLeague(_ request: Request, _ context: HuddleRequestContext) async throws -> League {
        try await leagues.anyLeague(try context.parameters.id(LeagueID.self))
    }

    /// `GET /internal/leagues/{id}/teams`
    @Sendable func leagueTeams(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Team> {
        try await leagues.allTeams(of: try context.parameters.id(LeagueID.self))

    }

    /// `GET /internal/courses/{id}`
    @Sendable func course(_ request: Request, _ context: HuddleRequestContext) async throws -> Course {
        try await places.course(try context.parameters.id(CourseID.self))
    }

    /// `GET /internal/venues/{id}`
    @Sendable func venue(_ request: Request, _ context: HuddleRequestContext) async throws -> Venue {
        try await places.venue(try context.parameters.id(VenueID.self))
    }

    /// `GET /internal/snapshots/teams`
    @Sendable func teamSnapshot(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Team> {
        try await teams.listed(page: try PageRequest(request))
    }

    /// `GET /internal/snapshots/courses`
    @Sendable func courseSnapshot(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Course> {
        try await places.courses(matching: nil, page: try PageRequest(request))
    }

    /// `GET /internal/snapshots/venues`
    @Sendable func venueSnapshot(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Venue> {
        try await places.venues(try PageRequest(request))
    }

    /// `POST /internal/news`
    @Sendable func ingestNews(_ body: NewsIngestRequest, _ request: Request, _ context: HuddleRequestContext) async throws
        -> NewsIngestResult
    {
        try await news.ingest(body)
    }
}

/// `/internal/moderation/...` of catalog: a team or league as a reporter sees it (its name, and its
/// manager as the one an action is against).
struct CatalogModerationController: Controller {
    let teams: Teams
    let leagues: Leagues

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .catalog), use: subject)
    }

    /// `GET /internal/moderation/subjects/{type}/{id}`
    @Sendable func subject(_ request: Request, _ context: HuddleRequestContext) async throws -> SubjectSnapshot {
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
