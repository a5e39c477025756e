public import Contracts

/// Events catalog publishes (`EventEnvelope.type`) and their payloads. Each carries the whole
/// current state of what changed, so a consumer never has to call back to catch up.
public enum CatalogEvent {
    public static let teamCreated = EventType<TeamChanged>("catalog.team.created", owner: .catalog)
    public static let teamUpdated = EventType<TeamChanged>("catalog.team.updated", owner: .catalog)
    public static let teamDeleted = EventType<TeamDeleted>("catalog.team.deleted", owner: .catalog)
    public static let membershipChanged = EventType<MembershipChanged>("catalog.team.membershipChanged", owner: .catalog)
    public static let leagueCreated = EventType<LeagueChanged>("catalog.league.created", owner: .catalog)
    public static let leagueTeamAdded = EventType<LeagueChanged>("catalog.league.teamAdded", owner: .catalog)
    /// A league passed to a new manager because its manager deleted their account.
    public static let leagueHandedOver = EventType<LeagueChanged>("catalog.league.handedOver", owner: .catalog)
    /// Its manager asked to add a team another manager manages, who is asked to accept.
    public static let leagueTeamRequested = EventType<LeagueTeamRequested>("catalog.league.teamRequested", owner: .catalog)
    /// Its manager deleted it; its teams stay.
    public static let leagueDeleted = EventType<LeagueDeleted>("catalog.league.deleted", owner: .catalog)
    public static let courseChanged = EventType<CourseChanged>("catalog.course.changed", owner: .catalog)
    /// An administrator deleted it; rounds played on it keep their copied holes.
    public static let courseDeleted = EventType<CourseDeleted>("catalog.course.deleted", owner: .catalog)
    public static let venueChanged = EventType<VenueChanged>("catalog.venue.changed", owner: .catalog)

    /// `teamCreated`, `teamUpdated`: the team as it now is (without a caller's membership).
    public struct TeamChanged: Codable, Equatable, Sendable {
        public var team: Team
        public init(team: Team) { self.team = team }
    }

    public struct TeamDeleted: Codable, Equatable, Sendable {
        public var teamId: TeamID
        public init(teamId: TeamID) { self.teamId = teamId }
    }

    /// `role` is nil when the user no longer has any standing with the team, `previousRole` nil when
    /// they had none before (so pending → player is an approved request).
    public struct MembershipChanged: Codable, Equatable, Sendable {
        public var teamId: TeamID
        public var userId: UserID
        public var role: Membership?
        public var previousRole: Membership?
        public var memberCount: Int
        public init(teamId: TeamID, userId: UserID, role: Membership?, previousRole: Membership? = nil, memberCount: Int) {
            self.teamId = teamId
            self.userId = userId
            self.role = role
            self.previousRole = previousRole
            self.memberCount = memberCount
        }
    }

    public struct LeagueDeleted: Codable, Equatable, Sendable {
        public var leagueId: LeagueID
        public init(leagueId: LeagueID) { self.leagueId = leagueId }
    }

    public struct LeagueTeamRequested: Codable, Equatable, Sendable {
        public var league: League
        public var teamId: TeamID
        public var teamName: String
        /// The team's manager, who answers.
        public var managerId: UserID
        public init(league: League, teamId: TeamID, teamName: String, managerId: UserID) {
            self.league = league
            self.teamId = teamId
            self.teamName = teamName
            self.managerId = managerId
        }
    }

    public struct CourseDeleted: Codable, Equatable, Sendable {
        public var courseId: CourseID
        public init(courseId: CourseID) { self.courseId = courseId }
    }

    public struct LeagueChanged: Codable, Equatable, Sendable {
        public var league: League
        public var teamIds: [TeamID]
        public init(league: League, teamIds: [TeamID]) {
            self.league = league
            self.teamIds = teamIds
        }
    }

    public struct CourseChanged: Codable, Equatable, Sendable {
        public var course: Course
        public init(course: Course) { self.course = course }
    }

    public struct VenueChanged: Codable, Equatable, Sendable {
        public var venue: Venue
        public init(venue: Venue) { self.venue = venue }
    }
}
