import Foundation

/// The stand-in's football world: fixtures with their status, score, events and 1X2 odds, changed by
/// test controls (and, later, a simulated matchday). Pure rules live in `FootballFixture`; the actor
/// only keeps them.
actor FootballFeed {
    private var fixtures: [Int: FootballFixture] = [:]
    private var nextID = 1_000_001

    func add(_ request: FootballControls.NewFixture) -> Int {
        let id = nextID
        nextID += 1
        fixtures[id] = FootballFixture(id: id, request: request)
        return id
    }

    func fixture(_ id: Int) -> FootballFixture? { fixtures[id] }

    /// Applies `change` to the fixture; nil when there is no such fixture.
    func change(_ id: Int, _ change: @Sendable (inout FootballFixture) throws -> Void) rethrows -> FootballFixture? {
        guard var fixture = fixtures[id] else { return nil }
        try change(&fixture)
        fixtures[id] = fixture
        return fixture
    }

    /// Fixtures kicking off on `day` (UTC, `YYYY-MM-DD`), soonest first.
    func fixtures(on day: String) -> [FootballFixture] {
        fixtures.values.filter { FootballFixture.day(of: $0.kickoff) == day }.sorted { ($0.kickoff, $0.id) < ($1.kickoff, $1.id) }
    }

    func live() -> [FootballFixture] {
        fixtures.values.filter { FootballStatus.inPlay.contains($0.status) }.sorted { $0.id < $1.id }
    }

    func fixtures(ids: [Int]) -> [FootballFixture] { ids.compactMap { fixtures[$0] } }
}

/// API-Football's status short codes, and what they mean.
enum FootballStatus {
    static let names: [String: String] = [
        "TBD": "Time To Be Defined", "NS": "Not Started", "1H": "First Half, Kick Off", "HT": "Halftime",
        "2H": "Second Half, 2nd Half Started", "ET": "Extra Time", "BT": "Break Time", "P": "Penalty In Progress",
        "SUSP": "Match Suspended", "INT": "Match Interrupted", "LIVE": "In Progress", "FT": "Match Finished",
        "AET": "Match Finished After Extra Time", "PEN": "Match Finished After Penalty", "PST": "Match Postponed",
        "CANC": "Match Cancelled", "ABD": "Match Abandoned", "AWD": "Technical Loss", "WO": "WalkOver",
    ]
    static let inPlay: Set<String> = ["1H", "HT", "2H", "ET", "BT", "P", "SUSP", "INT", "LIVE"]
}

struct FootballFixture: Sendable {
    enum Side: String, Codable, Sendable { case home, away }

    struct Event: Sendable {
        let elapsed: Int
        let side: Side
        let player: String
        let type: String
        let detail: String
    }

    let id: Int
    var league: (id: Int, name: String)
    var home: String
    var away: String
    var kickoff: Date
    var status = "NS"
    var elapsed: Int?
    var goals: (home: Int, away: Int) = (0, 0)
    var events: [Event] = []
    /// Decimal strings, as the provider sends them.
    var odds: (home: String, draw: String, away: String)?

    init(id: Int, request: FootballControls.NewFixture) {
        self.id = id
        league = (request.league?.id ?? 1000, request.league?.name ?? "Huddle Demo League")
        home = request.home
        away = request.away
        kickoff = request.kickoff
        odds = request.odds.map { ($0.home, $0.draw, $0.away) }
    }

    enum Refusal: Error, Equatable {
        case unknownStatus(String)
        case unknownEvent(String, String)
    }

    mutating func setStatus(_ short: String, elapsed: Int?) throws {
        guard FootballStatus.names[short] != nil else { throw Refusal.unknownStatus(short) }
        status = short
        self.elapsed = elapsed ?? self.elapsed
    }

    /// Records an event. Goals (Normal Goal, Own Goal, Penalty) count for `side`, the team the goal
    /// is credited to; a `Var` "Goal cancelled" takes one back from it. Cards, substitutions, missed
    /// penalties and other VAR decisions leave the score as it is.
    mutating func record(_ event: Event) throws {
        switch (event.type, event.detail) {
        case ("Goal", "Normal Goal"), ("Goal", "Own Goal"), ("Goal", "Penalty"):
            adjust(event.side, by: 1)
        case ("Var", "Goal cancelled"):
            adjust(event.side, by: -1)
        case ("Goal", "Missed Penalty"), ("Card", "Yellow Card"), ("Card", "Red Card"), ("Card", "Second Yellow card"),
            ("subst", _), ("Var", "Penalty confirmed"):
            break
        default:
            throw Refusal.unknownEvent(event.type, event.detail)
        }
        events.append(event)
        elapsed = max(elapsed ?? 0, event.elapsed)
    }

    private mutating func adjust(_ side: Side, by amount: Int) {
        switch side {
        case .home: goals.home = max(0, goals.home + amount)
        case .away: goals.away = max(0, goals.away + amount)
        }
    }

    /// A stable team id from its name, as the provider keeps one id per team.
    static func teamID(_ name: String) -> Int {
        Int(name.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % 90_000) + 10_000
    }

    static func day(of date: Date) -> String { String(ISO8601DateFormatter().string(from: date).prefix(10)) }
}
