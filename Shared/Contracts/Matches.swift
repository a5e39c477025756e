public import Foundation

public enum MatchTag {}
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

    public var id: MatchID
    public var league: League
    public var kickoff: Date
    public var status: String
    public var minute: Int?
    public var home: Team
    public var away: Team
    public var score: Score
    public var halftime: Score?
    public var events: [Event]
    public var version: Int
    public var updatedAt: Date

    public init(
        id: MatchID, league: League, kickoff: Date, status: String, minute: Int?, home: Team, away: Team, score: Score, halftime: Score?,
        events: [Event], version: Int, updatedAt: Date
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
        self.events = events
        self.version = version
        self.updatedAt = updatedAt
    }
}

/// The provider's status codes by phase.
public enum MatchStatus {
    public static let notStarted: Set<String> = ["TBD", "NS"]
    public static let inPlay: Set<String> = ["1H", "HT", "2H", "ET", "BT", "P", "SUSP", "INT", "LIVE"]
    public static let finished: Set<String> = ["FT", "AET", "PEN"]
    /// Ended without a result to settle on, or moved to another day.
    public static let called: Set<String> = ["PST", "CANC", "ABD", "AWD", "WO"]
    public static var all: Set<String> { notStarted.union(inPlay).union(finished).union(called) }
}
