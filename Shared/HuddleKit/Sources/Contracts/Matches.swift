public import Foundation

public enum MatchTag: NamedThing { public static let noun = "match" }
/// A professional match's id: derived from the provider's fixture id, so every replica and every
/// rebuild gives a fixture the same id.
public typealias MatchID = TypedID<MatchTag>

/// A professional football match as the live-football app shows it. `status` is the provider's
/// short code (NS, 1H, HT, 2H, ET, BT, P, SUSP, INT, LIVE, FT, AET, PEN, PST, CANC, ABD, AWD, WO, TBD).
/// Each change is a new `version`; a correction (a goal cancelled by VAR) is a change too.
public struct Match: Codable, Equatable, Sendable {
    public struct League: Codable, Equatable, Sendable {
        public var id: Int
        public var name: String
        public var country: String?
        public init(id: Int, name: String, country: String?) {
            self.id = id
            self.name = name
            self.country = country
        }
    }

    public struct Team: Codable, Equatable, Sendable {
        public var id: Int
        public var name: String
        public var logo: String?
        public init(id: Int, name: String, logo: String?) {
            self.id = id
            self.name = name
            self.logo = logo
        }
    }

    public struct Score: Codable, Equatable, Sendable {
        public var home: Int
        public var away: Int
        public init(home: Int, away: Int) {
            self.home = home
            self.away = away
        }
    }

    public enum Side: String, Codable, Sendable, CaseIterable, WireEnum { case home, away }

    public struct Event: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable, CaseIterable, WireEnum { case goal, card, substitution, `var` }
        public var minute: Int
        public var extra: Int?
        public var team: Side
        public var type: Kind
        /// The provider's detail: Normal Goal, Own Goal, Penalty, Missed Penalty, Yellow Card, Red Card,
        /// Second Yellow card, Goal cancelled, Penalty confirmed, or the substitution's "Substitution n".
        public var detail: String
        public var player: String
        public var assist: String?
        public init(minute: Int, extra: Int?, team: Side, type: Kind, detail: String, player: String, assist: String?) {
            self.minute = minute
            self.extra = extra
            self.team = team
            self.type = type
            self.detail = detail
            self.player = player
            self.assist = assist
        }
    }

    public struct Lineups: Codable, Equatable, Sendable {
        public var home: Lineup
        public var away: Lineup
        public init(home: Lineup, away: Lineup) {
            self.home = home
            self.away = away
        }
    }

    public struct Lineup: Codable, Equatable, Sendable {
        public var formation: String?
        public var startXI: [LineupPlayer]
        public var substitutes: [LineupPlayer]
        public var coach: String?
        public init(formation: String?, startXI: [LineupPlayer], substitutes: [LineupPlayer], coach: String?) {
            self.formation = formation
            self.startXI = startXI
            self.substitutes = substitutes
            self.coach = coach
        }
    }

    public struct LineupPlayer: Codable, Equatable, Sendable {
        public var name: String
        public var number: Int?
        /// G, D, M or F, as the provider gives it.
        public var position: String?
        public init(name: String, number: Int?, position: String?) {
            self.name = name
            self.number = number
            self.position = position
        }
    }

    /// One line of match statistics ("Ball Possession": "55%" / "45%"); values as the provider
    /// shows them, nil when it has none.
    public struct Statistic: Codable, Equatable, Sendable {
        public var type: String
        public var home: String?
        public var away: String?
        public init(type: String, home: String?, away: String?) {
            self.type = type
            self.home = home
            self.away = away
        }
    }

    public var id: MatchID
    public var league: League
    public var kickoff: Date
    public var status: MatchStatus
    public var minute: Int?
    public var home: Team
    public var away: Team
    public var score: Score
    public var halftime: Score?
    /// The score at the end of regular time (90 minutes and stoppage time), once the match is over:
    /// what 1X2 markets settle on, also after extra time or penalties.
    public var fulltime: Score?
    public var events: [Event]
    /// Announced about an hour before kickoff; nil until then.
    public var lineups: Lineups?
    /// Nil until the provider has any.
    public var statistics: [Statistic]?
    /// A new one for every change.
    public var version: Int
    /// When this version was taken from the provider. While the provider is down the last known
    /// state is served with the time it was taken.
    public var updatedAt: Date
    /// Set on a match in play that the provider has not reported since this time, for longer than
    /// games allows (`games.matches.silent.after.ms`, ten minutes by default): what is shown is the
    /// last report. Cleared by the next report. Unless one comes within betting's window for a
    /// postponed match (48 hours by default), its open legs are void.
    public var silentSince: Date?
    /// The provider's prediction of the result, in percent; nil while it has none.
    public var prediction: Prediction?

    /// The chances of each result the provider gives before kickoff, in percent.
    public struct Prediction: Codable, Equatable, Sendable {
        public var home: Int
        public var draw: Int
        public var away: Int
        public init(home: Int, draw: Int, away: Int) {
            self.home = home
            self.draw = draw
            self.away = away
        }
    }

    public init(
        id: MatchID, league: League, kickoff: Date, status: MatchStatus, minute: Int?, home: Team, away: Team, score: Score,
        halftime: Score?,
        fulltime: Score? = nil, events: [Event], lineups: Lineups? = nil, statistics: [Statistic]? = nil, version: Int, updatedAt: Date,
        silentSince: Date? = nil
    ) {
        self.id = id
        self.league = league
        self.kickoff = kickoff
        self.status = status
        self.minute = minute
        self.home = home
        self.away = away
        self.score = score
        self.halftime = halftime
        self.fulltime = fulltime
        self.events = events
        self.lineups = lineups
        self.statistics = statistics
        self.version = version
        self.updatedAt = updatedAt
        self.silentSince = silentSince
    }
}

/// Where a match stands, in the provider's short codes (API-Football's, also on Huddle's wire).
public enum MatchStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    case toBeDefined = "TBD", notStarted = "NS"
    case firstHalf = "1H", halftime = "HT", secondHalf = "2H", extraTime = "ET", breakTime = "BT", penalties = "P"
    case suspended = "SUSP", interrupted = "INT", live = "LIVE"
    case fullTime = "FT", afterExtraTime = "AET", afterPenalties = "PEN"
    case postponed = "PST", cancelled = "CANC", abandoned = "ABD", awarded = "AWD", walkover = "WO"

    /// Not kicked off yet.
    public static let beforeKickoff: Set<MatchStatus> = [.toBeDefined, .notStarted]
    public static let inPlay: Set<MatchStatus> = [
        .firstHalf, .halftime, .secondHalf, .extraTime, .breakTime, .penalties, .suspended, .interrupted, .live,
    ]
    /// Over with a result to settle on.
    public static let finished: Set<MatchStatus> = [.fullTime, .afterExtraTime, .afterPenalties]
    /// Ended without a result to settle on, or moved to another day.
    public static let called: Set<MatchStatus> = [.postponed, .cancelled, .abandoned, .awarded, .walkover]

    /// No more play to come: a result, or none.
    public var isOver: Bool { Self.finished.contains(self) || Self.called.contains(self) }
}

/// One frame of `GET /v1/matches/{id}/live`: the match as it is at `version`.
public struct MatchChange: Codable, Equatable, Sendable {
    public var version: Int
    public var match: Match
    public init(version: Int, match: Match) {
        self.version = version
        self.match = match
    }
}
