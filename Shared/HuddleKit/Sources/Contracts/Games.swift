public import Foundation

public enum GameTag: NamedThing { public static let noun = "game" }
public typealias GameID = TypedID<GameTag>

/// `team`: a team's own game; `league`: two teams of a league; `pickup`: anyone's open game.
public enum GameKind: String, Codable, Sendable, CaseIterable, WireEnum {
    case team, league, pickup
}

public enum GameStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    case scheduled, cancelled
}

/// Where a person stands on a game's roster. Players choose `going`, `maybe` and `notGoing`
/// themselves; `pending` waits for the organiser, `invited` for the player, and `waitlisted` for a slot.
public enum RosterStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    case going, maybe, notGoing, pending, invited, waitlisted

    /// The answers a player may give with `PUT /status`.
    public static let answers: [RosterStatus] = [.going, .maybe, .notGoing]

    /// On the roster with the organiser's agreement: sees the exact location of a protected game.
    public var isParticipant: Bool { self != .pending }
}

/// A game as one viewer sees it: `location` only when they may see it exactly, otherwise
/// `distanceMeters` when they said where they are (`?lat=&lng=`).
public struct Game: Codable, Equatable, Sendable {
    public var id: GameID
    public var kind: GameKind
    public var status: GameStatus
    public var teamId: TeamID?
    public var teamName: String?
    public var leagueId: LeagueID?
    public var homeTeamId: TeamID?
    public var homeTeamName: String?
    public var awayTeamId: TeamID?
    public var awayTeamName: String?
    public var organizerId: UserID
    public var startsAt: Date
    /// The IANA time zone the game is played in (as the app sent it), for reminders on game day.
    public var timeZone: String?
    public var sport: Sport
    public var privacy: Privacy
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var skill: Skill
    /// Player slots; absent when any number may go.
    public var capacity: Int?
    /// Players the organiser already has who have no account here (a pick-up game's `alreadyGoing`);
    /// counted in `goingCount`. Absent when none.
    public var alreadyGoing: Int?
    /// Going players: those on the roster and `alreadyGoing`. The free slots are `capacity − goingCount`.
    public var goingCount: Int
    public var waitlistCount: Int
    /// Substitutes still wanted; above zero the game "needs players" in search.
    public var subsNeeded: Int
    public var location: Location?
    public var distanceMeters: Int?
    public var description: String?
    /// The caller's place on the roster; absent when they have none.
    public var myStatus: RosterStatus?
    public var createdAt: Date
    /// True when moderators hid it: only its organiser sees it then. Absent otherwise.
    public var hidden: Bool?
    /// The ground it is played at (`GET /v1/venues/{id}`); shown with `location`, to whoever may see the place.
    public var venueId: VenueID?
    /// The first game of the weekly series it belongs to (`repeat` when it was planned); absent for a single game.
    public var seriesId: GameID?

    public init(
        id: GameID, kind: GameKind, status: GameStatus = .scheduled, teamId: TeamID? = nil, teamName: String? = nil,
        leagueId: LeagueID? = nil, homeTeamId: TeamID? = nil, homeTeamName: String? = nil, awayTeamId: TeamID? = nil,
        awayTeamName: String? = nil, organizerId: UserID, startsAt: Date, timeZone: String? = nil, sport: Sport, privacy: Privacy,
        ageGroup: AgeGroup,
        gender: Gender, skill: Skill, capacity: Int? = nil, goingCount: Int = 0, waitlistCount: Int = 0, subsNeeded: Int = 0,
        location: Location? = nil, distanceMeters: Int? = nil, description: String? = nil, myStatus: RosterStatus? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.status = status
        self.teamId = teamId
        self.teamName = teamName
        self.leagueId = leagueId
        self.homeTeamId = homeTeamId
        self.homeTeamName = homeTeamName
        self.awayTeamId = awayTeamId
        self.awayTeamName = awayTeamName
        self.organizerId = organizerId
        self.startsAt = startsAt
        self.timeZone = timeZone
        self.sport = sport
        self.privacy = privacy
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.capacity = capacity
        self.goingCount = goingCount
        self.waitlistCount = waitlistCount
        self.subsNeeded = subsNeeded
        self.location = location
        self.distanceMeters = distanceMeters
        self.description = description
        self.myStatus = myStatus
        self.createdAt = createdAt
    }
}

/// `POST /v1/games`. Which fields are needed depends on `kind`: a team game's `teamId`, a league game's
/// `leagueId` and its two teams, a pickup game's place, sport, privacy, age group, gender and skill; team
/// and league games
/// take what they omit from the team.
public struct CreateGameRequest: Codable, Equatable, Sendable {
    public var kind: GameKind
    public var teamId: TeamID?
    public var leagueId: LeagueID?
    public var homeTeamId: TeamID?
    public var awayTeamId: TeamID?
    public var startsAt: Date
    /// An IANA time zone such as `Europe/Tallinn`; UTC when absent.
    public var timeZone: String?
    public var location: Location?
    public var sport: Sport?
    public var privacy: Privacy?
    public var ageGroup: AgeGroup?
    public var gender: Gender?
    public var skill: Skill?
    public var capacity: Int?
    public var description: String?
    /// Whether a team game's manager plays in it: going (counted in `goingCount`, as a pick-up's
    /// organiser is) unless false, when they are invited like the other members. League games leave
    /// their manager out of the roster.
    public var organizerGoing: Bool?
    /// A pick-up game's players the organiser already has, without accounts here: they take slots
    /// beside the organiser's.
    public var alreadyGoing: Int?
    /// The ground it is played at: its place is the game's unless `location` is given, and its sport
    /// too when it has only one and `sport` is absent.
    public var venueId: VenueID?
    /// Plans a series: this game and more at the same local time each week (`Game.seriesId`).
    public var `repeat`: GameRepeat?

    public init(
        kind: GameKind, teamId: TeamID? = nil, leagueId: LeagueID? = nil, homeTeamId: TeamID? = nil, awayTeamId: TeamID? = nil,
        startsAt: Date, timeZone: String? = nil, location: Location? = nil, sport: Sport? = nil, privacy: Privacy? = nil,
        ageGroup: AgeGroup? = nil, gender: Gender? = nil, skill: Skill? = nil, capacity: Int? = nil, description: String? = nil,
        organizerGoing: Bool? = nil, alreadyGoing: Int? = nil, venueId: VenueID? = nil, repeat: GameRepeat? = nil
    ) {
        self.kind = kind
        self.repeat = `repeat`
        self.venueId = venueId
        self.alreadyGoing = alreadyGoing
        self.organizerGoing = organizerGoing
        self.timeZone = timeZone
        self.teamId = teamId
        self.leagueId = leagueId
        self.homeTeamId = homeTeamId
        self.awayTeamId = awayTeamId
        self.startsAt = startsAt
        self.location = location
        self.sport = sport
        self.privacy = privacy
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.capacity = capacity
        self.description = description
    }
}

/// How often a series of games repeats.
public enum RepeatInterval: String, Codable, Sendable, CaseIterable, WireEnum {
    case week
}

/// `CreateGameRequest.repeat`: one of `count` (games in the series, the first among them) or `until`
/// (the last game starts on or before it); a series has at most `maxGames`.
public struct GameRepeat: Codable, Equatable, Sendable {
    public static let maxGames = 52
    public var every: RepeatInterval
    public var count: Int?
    public var until: Date?

    public init(every: RepeatInterval = .week, count: Int? = nil, until: Date? = nil) {
        self.every = every
        self.count = count
        self.until = until
    }
}

/// `?scope=` of a change or cancellation of a game in a series: this game alone, or it and the
/// series' later games.
public enum SeriesScope: String, Codable, Sendable, CaseIterable, WireEnum {
    case this, following
}

/// `PATCH /v1/games/{id}`: absent fields stay as they are.
public struct UpdateGameRequest: Codable, Equatable, Sendable {
    public var startsAt: Date?
    public var timeZone: String?
    public var location: Location?
    public var privacy: Privacy?
    public var ageGroup: AgeGroup?
    public var gender: Gender?
    public var skill: Skill?
    public var capacity: Int?
    public var description: String?
    /// A pick-up game's players without accounts, as the organiser now counts them.
    public var alreadyGoing: Int?

    public init(
        startsAt: Date? = nil, timeZone: String? = nil, location: Location? = nil, privacy: Privacy? = nil, ageGroup: AgeGroup? = nil,
        gender: Gender? = nil, skill: Skill? = nil, capacity: Int? = nil, description: String? = nil, alreadyGoing: Int? = nil
    ) {
        self.alreadyGoing = alreadyGoing
        self.startsAt = startsAt
        self.timeZone = timeZone
        self.location = location
        self.privacy = privacy
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.capacity = capacity
        self.description = description
    }
}

/// A roster entry: `position` counts from 1 on the waiting list; `substitute` marks someone who
/// came in answer to a call for substitutes.
public struct RosterEntry: Codable, Equatable, Sendable {
    public var userId: UserID
    public var name: String
    public var status: RosterStatus
    public var position: Int?
    public var substitute: Bool

    public init(userId: UserID, name: String, status: RosterStatus, position: Int? = nil, substitute: Bool = false) {
        self.userId = userId
        self.name = name
        self.status = status
        self.position = position
        self.substitute = substitute
    }
}

public struct SetRosterStatusRequest: Codable, Equatable, Sendable {
    public var status: RosterStatus
    public init(status: RosterStatus) { self.status = status }
}

/// `POST /v1/games/{id}/rsvp`: an answer from a push, without a session: `token` is the push's
/// `data.rsvpToken`, good for its player and game until kickoff.
public struct RSVPAnswer: Codable, Equatable, Sendable {
    public var token: String
    public var status: RosterStatus

    public init(token: String, status: RosterStatus) {
        self.token = token
        self.status = status
    }
}

public struct SubstitutesRequest: Codable, Equatable, Sendable {
    public var needed: Int
    public init(needed: Int) { self.needed = needed }
}

/// The answer to join, status, approve: the caller's (or the approved player's) place now;
/// `status` is absent once they are off the roster (a withdrawn request).
public struct RosterPlace: Codable, Equatable, Sendable {
    public var gameId: GameID
    public var userId: UserID
    public var status: RosterStatus?
    public var position: Int?
    public var substitute: Bool
    public var goingCount: Int
    public var subsNeeded: Int

    public init(
        gameId: GameID, userId: UserID, status: RosterStatus?, position: Int? = nil, substitute: Bool = false, goingCount: Int,
        subsNeeded: Int
    ) {
        self.gameId = gameId
        self.userId = userId
        self.status = status
        self.position = position
        self.substitute = substitute
        self.goingCount = goingCount
        self.subsNeeded = subsNeeded
    }
}

extension Privacy {
    /// The one location rule of games and search: a public game shows where it is to everyone;
    /// a protected or private one only to its participants, and others get a distance.
    public func revealsExactLocation(toParticipant isParticipant: Bool) -> Bool {
        self == .public || isParticipant
    }
}

extension Game {
    /// What people call the game: its teams, its team, or its description.
    public var displayName: String {
        if let home = homeTeamName, let away = awayTeamName { return "\(home) – \(away)" }
        if let team = teamName { return team }
        if let description, !description.isEmpty { return String(description.prefix(80)) }
        return "\(sport.rawValue.capitalized) game"
    }
}

/// `POST /v1/games/{id}/remind`: how many players who have not answered are reminded.
public struct RemindResult: Codable, Equatable, Sendable {
    public var reminded: Int
    public init(reminded: Int) { self.reminded = reminded }
}
