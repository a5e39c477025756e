public import Foundation

public enum RoundTag: NamedThing { public static let noun = "round" }
public enum RoundPlayerTag: NamedThing { public static let noun = "round player" }
public typealias RoundID = TypedID<RoundTag>
/// A place on a round's scorecard: a registered player or a guest.
public typealias RoundPlayerID = TypedID<RoundPlayerTag>

public enum RoundStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    case ongoing, completed
}

/// One entry of `StartRoundRequest.players`: a registered player (`userId`) or a guest (`guestName`).
public struct RoundPlayerRequest: Codable, Equatable, Sendable {
    public var userId: UserID?
    public var guestName: String?

    public init(userId: UserID? = nil, guestName: String? = nil) {
        self.userId = userId
        self.guestName = guestName
    }
}

/// `POST /v1/rounds`, on a listed course (`courseId`) or on one that is not in the list (`course`),
/// one or the other. The starter always plays; `players` lists the others.
public struct StartRoundRequest: Codable, Equatable, Sendable {
    public var courseId: CourseID?
    /// A course not in the list, played as the starter's own: its name and holes with their pars.
    public var course: UnlistedCourse?
    public var players: [RoundPlayerRequest]

    public init(courseId: CourseID, players: [RoundPlayerRequest] = []) {
        self.courseId = courseId
        self.players = players
    }

    public init(course: UnlistedCourse, players: [RoundPlayerRequest] = []) {
        self.course = course
        self.players = players
    }
}

/// A course that is not in Huddle's list, as the players at it describe it.
public struct UnlistedCourse: Codable, Equatable, Sendable {
    public var name: String
    /// Numbered 1…n without gaps, par 2–7.
    public var holes: [ScorecardHole]

    public init(name: String, holes: [ScorecardHole]) {
        self.name = name
        self.holes = holes
    }
}

public struct ScorecardHole: Codable, Equatable, Sendable {
    public var number: Int
    public var par: Int

    public init(number: Int, par: Int) {
        self.number = number
        self.par = par
    }
}

public struct HoleScore: Codable, Equatable, Sendable {
    public var hole: Int
    /// nil until the player has a score on the hole: "parred 2" and "has not played 2" differ.
    public var strokes: Int?

    public init(hole: Int, strokes: Int?) {
        self.hole = hole
        self.strokes = strokes
    }
}

public struct ScorecardPlayer: Codable, Equatable, Sendable {
    public var playerId: RoundPlayerID
    /// Absent for guests.
    public var userId: UserID?
    public var name: String
    /// Every hole of the round, in order; a hole not yet played has no strokes.
    public var scores: [HoleScore]
    /// Strokes over the holes played so far.
    public var total: Int
    /// `total` against the par of the holes played so far.
    public var toPar: Int
    public var holesPlayed: Int

    public init(
        playerId: RoundPlayerID, userId: UserID?, name: String, scores: [HoleScore], total: Int, toPar: Int, holesPlayed: Int
    ) {
        self.playerId = playerId
        self.userId = userId
        self.name = name
        self.scores = scores
        self.total = total
        self.toPar = toPar
        self.holesPlayed = holesPlayed
    }

    /// A line whose `total`, `toPar` and `holesPlayed` are worked out from its scores over `holes`.
    public init(playerId: RoundPlayerID, userId: UserID?, name: String, scores: [HoleScore], holes: [ScorecardHole]) {
        self.init(playerId: playerId, userId: userId, name: name, scores: scores, total: 0, toPar: 0, holesPlayed: 0)
        recount(holes: holes)
    }

    /// Works `total`, `toPar` and `holesPlayed` out again from the holes played: unplayed holes count
    /// for nothing, neither as strokes nor as par.
    public mutating func recount(holes: [ScorecardHole]) {
        let pars = Dictionary(holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
        let played = scores.compactMap { score in score.strokes.map { (strokes: $0, par: pars[score.hole] ?? $0) } }
        total = played.reduce(0) { $0 + $1.strokes }
        toPar = total - played.reduce(0) { $0 + $1.par }
        holesPlayed = played.count
    }

    /// Whether the player has a score on every hole of the round.
    public var hasPlayedEveryHole: Bool { holesPlayed == scores.count }
}

/// A round's one shared scorecard. `version` grows by one with every change.
public struct Scorecard: Codable, Equatable, Sendable {
    public var id: RoundID
    /// The listed course it is played on; on an unlisted course (`courseUnlisted`), an id of the round's own.
    public var courseId: CourseID
    public var courseName: String
    /// True when the course is not in the list (`StartRoundRequest.course`): `GET /v1/courses/{courseId}` does not know it.
    public var courseUnlisted: Bool?
    public var status: RoundStatus
    public var version: Int
    /// The hole most recently scored (1 before any score).
    public var currentHole: Int
    public var holes: [ScorecardHole]
    public var players: [ScorecardPlayer]
    public var startedBy: UserID
    public var startedAt: Date
    public var finishedAt: Date?

    public init(
        id: RoundID, courseId: CourseID, courseName: String, status: RoundStatus, version: Int, currentHole: Int,
        holes: [ScorecardHole], players: [ScorecardPlayer], startedBy: UserID, startedAt: Date, finishedAt: Date? = nil
    ) {
        self.id = id
        self.courseId = courseId
        self.courseName = courseName
        self.status = status
        self.version = version
        self.currentHole = currentHole
        self.holes = holes
        self.players = players
        self.startedBy = startedBy
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    public var par: Int { holes.reduce(0) { $0 + $1.par } }
}

/// `PUT /v1/rounds/{id}/scores`, and what a client sends on the live socket. With
/// `expectedVersion`, a card that moved on since is a 409 carrying the current card.
public struct ScoreUpdate: Codable, Equatable, Sendable {
    public var playerId: RoundPlayerID
    public var hole: Int
    public var strokes: Int
    public var expectedVersion: Int?

    public init(playerId: RoundPlayerID, hole: Int, strokes: Int, expectedVersion: Int? = nil) {
        self.playerId = playerId
        self.hole = hole
        self.strokes = strokes
        self.expectedVersion = expectedVersion
    }
}

/// A message on `GET /v1/rounds/{id}/live`:
/// - `card`: the whole card at `version` (on connecting without `afterVersion`);
/// - `score`: one change, `{version, playerId, hole, strokes}` (no `strokes`: the cell was cleared);
/// - `finished`: the round was finished at `version`, with the final `card`;
/// - `playerAdded`: a player joined the round under way at `version` (`playerId`), with the whole `card`;
/// - `error`: a score sent on the socket was refused (`problem`); nothing changed.
public struct LiveMessage: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable, WireEnum {
        case card, score, finished, playerAdded, error
    }

    public var type: Kind
    public var version: Int
    public var playerId: RoundPlayerID?
    public var hole: Int?
    public var strokes: Int?
    public var card: Scorecard?
    public var problem: Problem?

    public init(
        type: Kind, version: Int, playerId: RoundPlayerID? = nil, hole: Int? = nil, strokes: Int? = nil, card: Scorecard? = nil,
        problem: Problem? = nil
    ) {
        self.type = type
        self.version = version
        self.playerId = playerId
        self.hole = hole
        self.strokes = strokes
        self.card = card
        self.problem = problem
    }
}

/// The 409 of a score sent with a stale `expectedVersion`: a problem with the current card.
public struct ScoreConflict: Codable, Equatable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var code: String
    /// The trace the refusal happened in, as every problem names it.
    public var traceId: String?
    public var scorecard: Scorecard

    public init(problem: Problem, scorecard: Scorecard) {
        self.type = problem.type
        self.title = problem.title
        self.status = problem.status
        self.detail = problem.detail
        self.code = problem.code
        self.traceId = problem.traceId
        self.scorecard = scorecard
    }
}

/// A personal record on one course: the best total of a completed round.
public struct PersonalRecord: Codable, Equatable, Sendable {
    public var total: Int
    public var toPar: Int
    public var date: Date
    public var roundId: RoundID

    public init(total: Int, toPar: Int, date: Date, roundId: RoundID) {
        self.total = total
        self.toPar = toPar
        self.date = date
        self.roundId = roundId
    }
}

public struct CourseStats: Codable, Equatable, Sendable {
    public var courseId: CourseID
    public var courseName: String
    public var roundsPlayed: Int
    public var best: PersonalRecord
    public var averageTotal: Double

    public init(courseId: CourseID, courseName: String, roundsPlayed: Int, best: PersonalRecord, averageTotal: Double) {
        self.courseId = courseId
        self.courseName = courseName
        self.roundsPlayed = roundsPlayed
        self.best = best
        self.averageTotal = averageTotal
    }
}

/// How many holes of completed rounds ended each way.
public struct ScoreCounts: Codable, Equatable, Sendable {
    /// Holes in one, whatever the par.
    public var aces: Int
    /// Two or more under par (aces excluded).
    public var eagles: Int
    public var birdies: Int
    public var pars: Int
    public var bogeys: Int
    /// Two or more over par.
    public var doubleBogeys: Int

    public init(aces: Int = 0, eagles: Int = 0, birdies: Int = 0, pars: Int = 0, bogeys: Int = 0, doubleBogeys: Int = 0) {
        self.aces = aces
        self.eagles = eagles
        self.birdies = birdies
        self.pars = pars
        self.bogeys = bogeys
        self.doubleBogeys = doubleBogeys
    }
}

/// `GET /v1/users/{id}/stats`, from the user's completed rounds.
public struct PlayerStats: Codable, Equatable, Sendable {
    public var userId: UserID
    public var roundsPlayed: Int
    public var courses: [CourseStats]
    public var scores: ScoreCounts

    public init(userId: UserID, roundsPlayed: Int, courses: [CourseStats], scores: ScoreCounts) {
        self.userId = userId
        self.roundsPlayed = roundsPlayed
        self.courses = courses
        self.scores = scores
    }
}
