public import Foundation

public enum TeamTag: NamedThing { public static let noun = "team" }
public enum LeagueTag: NamedThing { public static let noun = "league" }
public enum CourseTag: NamedThing { public static let noun = "course" }
public enum VenueTag: NamedThing { public static let noun = "venue" }
public enum ArticleTag: NamedThing { public static let noun = "article" }

public typealias TeamID = TypedID<TeamTag>
public typealias LeagueID = TypedID<LeagueTag>
public typealias CourseID = TypedID<CourseTag>
public typealias VenueID = TypedID<VenueTag>
public typealias ArticleID = TypedID<ArticleTag>

/// A place: coordinates and, optionally, a human address.
public struct Location: Codable, Equatable, Hashable, Sendable {
    public var lat: Double
    public var lng: Double
    public var address: String?

    public init(lat: Double, lng: Double, address: String? = nil) {
        self.lat = lat
        self.lng = lng
        self.address = address
    }

    public var coordinates: Coordinates { Coordinates(lat: lat, lng: lng) }
}

/// `GET /v1/sports`.
public struct SportInfo: Codable, Equatable, Sendable {
    public var id: Sport
    public var name: String

    public init(id: Sport, name: String) {
        self.id = id
        self.name = name
    }
}

// MARK: Teams

/// How a user stands with a team. `pending`: asked to join a protected team; `invited`: asked by the manager.
public enum Membership: String, Codable, Sendable, CaseIterable, WireEnum {
    case manager, player, pending, invited

    /// Manager and players are on the team; pending and invited are not yet.
    public var isMember: Bool { self == .manager || self == .player }
}

public struct Team: Codable, Equatable, Sendable {
    public var id: TeamID
    public var name: String
    public var sport: Sport
    public var privacy: Privacy
    /// The exact place: for a public team to anyone, for a protected or private one to its members
    /// only (the place is revealed once the manager approves); left out too for a non-member who
    /// lacks the `location` entitlement where that gate is on (`purchases.gates`). Always present
    /// inside the backend.
    public var location: Location?
    /// How far the team's place is from where the caller said they are (`?lat=&lng=`), in metres,
    /// whether or not the place itself is shown.
    public var distanceMeters: Int?
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var skill: Skill
    public var managerId: UserID
    /// Manager and players.
    public var memberCount: Int
    /// The caller's standing; absent when they have none.
    public var membership: Membership?
    public var createdAt: Date
    /// True when moderators hid it: only its manager sees it then. Absent otherwise.
    public var hidden: Bool?
    /// The logo its manager uploaded (`logoMediaId`), in three sizes.
    public var logo: PictureSizes?
    /// True while its manager says it is looking for players (`PATCH … {recruiting}`); absent otherwise.
    public var recruiting: Bool?
    /// Leagues that asked to add the team, waiting for its manager's answer: shown to its manager only.
    public var leagueRequests: [LeagueID]?

    public init(
        id: TeamID, name: String, sport: Sport, privacy: Privacy, location: Location?, ageGroup: AgeGroup, gender: Gender,
        skill: Skill, managerId: UserID, memberCount: Int, membership: Membership? = nil, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.sport = sport
        self.privacy = privacy
        self.location = location
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.managerId = managerId
        self.memberCount = memberCount
        self.membership = membership
        self.createdAt = createdAt
    }
}

public struct CreateTeamRequest: Codable, Equatable, Sendable {
    public var name: String
    public var sport: Sport
    public var privacy: Privacy
    public var location: Location
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var skill: Skill

    public init(
        name: String, sport: Sport, privacy: Privacy, location: Location, ageGroup: AgeGroup, gender: Gender, skill: Skill
    ) {
        self.name = name
        self.sport = sport
        self.privacy = privacy
        self.location = location
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
    }
}

/// `PATCH /v1/teams/{id}`: only the fields present change.
public struct UpdateTeamRequest: Codable, Equatable, Sendable {
    public var name: String?
    public var privacy: Privacy?
    public var location: Location?
    public var ageGroup: AgeGroup?
    public var gender: Gender?
    public var skill: Skill?
    /// One of my uploads made for `teamLogo` and completed; null removes the logo.
    public var logoMediaId: MediaID??
    /// Whether the team is looking for players: it then shows in `GET /v1/search/teams?recruiting=true`.
    public var recruiting: Bool?

    public init(
        name: String? = nil, privacy: Privacy? = nil, location: Location? = nil, ageGroup: AgeGroup? = nil,
        gender: Gender? = nil, skill: Skill? = nil, logoMediaId: MediaID?? = nil, recruiting: Bool? = nil
    ) {
        self.recruiting = recruiting
        self.name = name
        self.privacy = privacy
        self.location = location
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.logoMediaId = logoMediaId
    }

    private enum CodingKeys: String, CodingKey { case name, privacy, location, ageGroup, gender, skill, logoMediaId, recruiting }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        privacy = try container.decodeIfPresent(Privacy.self, forKey: .privacy)
        location = try container.decodeIfPresent(Location.self, forKey: .location)
        ageGroup = try container.decodeIfPresent(AgeGroup.self, forKey: .ageGroup)
        gender = try container.decodeIfPresent(Gender.self, forKey: .gender)
        skill = try container.decodeIfPresent(Skill.self, forKey: .skill)
        logoMediaId = try container.decodeNullable(MediaID.self, forKey: .logoMediaId)
        recruiting = try container.decodeIfPresent(Bool.self, forKey: .recruiting)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(privacy, forKey: .privacy)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(ageGroup, forKey: .ageGroup)
        try container.encodeIfPresent(gender, forKey: .gender)
        try container.encodeIfPresent(skill, forKey: .skill)
        if let logoMediaId { try container.encode(logoMediaId, forKey: .logoMediaId) }
        try container.encodeIfPresent(recruiting, forKey: .recruiting)
    }
}

/// A roster entry.
public struct TeamMember: Codable, Equatable, Sendable {
    public var userId: UserID
    public var name: String
    public var role: Membership

    public init(userId: UserID, name: String, role: Membership) {
        self.userId = userId
        self.name = name
        self.role = role
    }
}

public struct InviteRequest: Codable, Equatable, Sendable, FieldConstraints {
    /// An invitation names 1 to 100 players.
    public static let count = 1...100
    public static var constraints: [String: JSONSchema] { ["userIds": JSONSchema().items(count)] }

    public var userIds: [UserID]

    public init(userIds: [UserID]) { self.userIds = userIds }
}

public struct InviteResult: Codable, Equatable, Sendable {
    /// Users who now hold an invitation (or were let in, when they had asked to join).
    public var invited: [UserID]
    /// Users who were already on the team or invited.
    public var unchanged: [UserID]

    public init(invited: [UserID], unchanged: [UserID]) {
        self.invited = invited
        self.unchanged = unchanged
    }
}

/// Internal: one user's standing with one team.
public struct TeamMembership: Codable, Equatable, Sendable {
    public var teamId: TeamID
    public var userId: UserID
    public var role: Membership

    public init(teamId: TeamID, userId: UserID, role: Membership) {
        self.teamId = teamId
        self.userId = userId
        self.role = role
    }
}

// MARK: Leagues

public struct League: Codable, Equatable, Sendable {
    public var id: LeagueID
    public var name: String
    public var sport: Sport
    public var skill: Skill
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var privacy: Privacy
    public var location: Location?
    public var managerId: UserID
    public var teamCount: Int
    public var createdAt: Date
    /// True when moderators hid it: only its manager sees it then. Absent otherwise.
    public var hidden: Bool?
    /// The logo its manager uploaded (`logoMediaId`), in three sizes.
    public var logo: PictureSizes?

    public init(
        id: LeagueID, name: String, sport: Sport, skill: Skill, ageGroup: AgeGroup, gender: Gender, privacy: Privacy,
        location: Location?, managerId: UserID, teamCount: Int, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.sport = sport
        self.skill = skill
        self.ageGroup = ageGroup
        self.gender = gender
        self.privacy = privacy
        self.location = location
        self.managerId = managerId
        self.teamCount = teamCount
        self.createdAt = createdAt
    }
}

public struct CreateLeagueRequest: Codable, Equatable, Sendable {
    public var name: String
    public var sport: Sport
    public var skill: Skill
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var privacy: Privacy
    public var location: Location?

    public init(
        name: String, sport: Sport, skill: Skill, ageGroup: AgeGroup, gender: Gender, privacy: Privacy,
        location: Location? = nil
    ) {
        self.name = name
        self.sport = sport
        self.skill = skill
        self.ageGroup = ageGroup
        self.gender = gender
        self.privacy = privacy
        self.location = location
    }
}

/// `PATCH /v1/leagues/{id}`: absent fields stay as they are.
public struct UpdateLeagueRequest: Codable, Equatable, Sendable {
    public var name: String?
    /// One of my uploads made for `leagueLogo` and completed; null removes the logo.
    public var logoMediaId: MediaID??

    public init(name: String? = nil, logoMediaId: MediaID?? = nil) {
        self.name = name
        self.logoMediaId = logoMediaId
    }

    private enum CodingKeys: String, CodingKey { case name, logoMediaId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        logoMediaId = try container.decodeNullable(MediaID.self, forKey: .logoMediaId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        if let logoMediaId { try container.encode(logoMediaId, forKey: .logoMediaId) }
    }
}

public struct AddLeagueTeamRequest: Codable, Equatable, Sendable {
    public var teamId: TeamID

    public init(teamId: TeamID) { self.teamId = teamId }
}

/// What `POST /v1/leagues/{id}/teams` answers (202) for a team someone else manages: it joins the
/// league once its manager accepts (`POST /v1/teams/{id}/leagues/{leagueId}/accept`).
public struct LeagueTeamRequest: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable, CaseIterable, WireEnum { case pending }

    public var status: Status
    public var leagueId: LeagueID
    public var teamId: TeamID

    public init(status: Status = .pending, leagueId: LeagueID, teamId: TeamID) {
        self.status = status
        self.leagueId = leagueId
        self.teamId = teamId
    }
}
