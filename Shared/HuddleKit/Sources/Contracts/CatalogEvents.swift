/// Events catalog publishes (`EventEnvelope.type`) and their payloads. Each carries the whole
/// current state of what changed, so a consumer never has to call back to catch up.
public enum CatalogEvent {
    public static let teamCreated = "catalog.team.created"
    public static let teamUpdated = "catalog.team.updated"
    public static let teamDeleted = "catalog.team.deleted"
    public static let membershipChanged = "catalog.team.membershipChanged"
    public static let leagueCreated = "catalog.league.created"
    public static let leagueTeamAdded = "catalog.league.teamAdded"
    public static let courseChanged = "catalog.course.changed"
    public static let venueChanged = "catalog.venue.changed"

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
