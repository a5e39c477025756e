import Foundation
import HuddleEffects

/// The stand-in's football world: fixtures with their status, score, events and 1X2 odds, changed by
/// test controls and by a simulated matchday's scripts as time passes. Pure rules live in
/// `FootballFixture` and `Matchday`; the actor only keeps them.
actor FootballFeed {
    private var fixtures: [Int: FootballFixture] = [:]
    /// Fixture ids are new on every start, as a real feed's are for new fixtures: a stand-in that
    /// restarted once handed out the same ids again, so a restarted `huddle` saw its stored matches
    /// (one at 3–0, one cancelled and refunded) go back to not started. Counted from the start time,
    /// 100 a second, kept below 2³¹ as stores keep provider ids in 32-bit integers.
    private var nextID: Int

    init(started: Date = Effects.system.now()) {
        nextID = Self.firstID(at: started)
    }

    /// The first fixture id handed out by a feed started at `date`.
    static func firstID(at date: Date) -> Int { 1_000_000 + (Int(date.timeIntervalSince1970) % 20_000_000) * 100 }
    /// Scripted fixtures: the steps still to play, and the real seconds per match minute.
    private var scripts: [Int: (steps: ArraySlice<Matchday.Step>, secondsPerMinute: Double)] = [:]
    private(set) var isDown = false

    func add(_ request: FootballControl.NewFixture) -> Int {
        let id = nextID
        nextID += 1
        fixtures[id] = FootballFixture(id: id, request: request)
        return id
    }

    /// Adds the matchday's fixtures, with ids counted from its start (the same matchday continued
    /// after a restart keeps its ids); they play themselves as `advance` is called.
    func add(_ matchday: Matchday) {
        for (index, fixture) in matchday.fixtures.enumerated() {
            let id = Self.firstID(at: matchday.start) + index
            fixtures[id] = FootballFixture(id: id, request: fixture.request)
            nextID = max(nextID, id + 1)
            fixtures[id]!.lineupsFrom = fixture.request.kickoff.addingTimeInterval(-3600 / matchday.speed)
            scripts[id] = (fixture.steps[...], 60 / matchday.speed)
        }
    }

    func setDown(_ down: Bool) { isDown = down }

    /// Plays every scripted step due by `now`.
    func advance(to now: Date) {
        for (id, script) in scripts {
            guard var fixture = fixtures[id] else { continue }
            let minute = now.timeIntervalSince(fixture.kickoff) / script.secondsPerMinute
            var steps = script.steps
            while let step = steps.first, step.at <= minute {
                fixture.play(step.change)
                steps = steps.dropFirst()
            }
            fixtures[id] = fixture
            scripts[id] = steps.isEmpty ? nil : (steps, script.secondsPerMinute)
        }
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
    static let notStarted: Set<String> = ["TBD", "NS"]
    /// Extra time, its break, penalties, and the results reached through them.
    static let afterRegularTime: Set<String> = ["ET", "BT", "P", "AET", "PEN"]
}

struct FootballFixture: Sendable {
    typealias Side = FootballControl.Side

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
    /// The score when regular time ended, kept once extra time begins (`score.fulltime` then).
    var regularTime: (home: Int, away: Int)?
    var events: [Event] = []
    /// Decimal strings, as the provider sends them.
    var odds: (home: String, draw: String, away: String)?
    /// Percentages a test set; without them, the odds' implied chances are the prediction.
    var prediction: (home: Int, draw: Int, away: Int)?
    /// When the lineups are announced: an hour before kickoff.
    var lineupsFrom: Date

    init(id: Int, request: FootballControl.NewFixture) {
        self.id = id
        league = (request.league?.id ?? 1000, request.league?.name ?? "Huddle Demo League")
        home = request.home
        away = request.away
        kickoff = request.kickoff
        odds = request.odds.map { ($0.home, $0.draw, $0.away) }
        prediction = request.prediction.map { ($0.home, $0.draw, $0.away) }
        lineupsFrom = request.kickoff.addingTimeInterval(-3600)
    }

    enum Refusal: Error, Equatable {
        case unknownStatus(String)
        case unknownEvent(String, String)
    }

    /// A fixture that kicks off (`1H`) before its scheduled kickoff kicked off `now`: its kickoff moves
    /// there, so no match is over before the time it started.
    mutating func setStatus(_ short: String, elapsed: Int?, at now: Date) throws {
        guard FootballStatus.names[short] != nil else { throw Refusal.unknownStatus(short) }
        if status != short, ["NS", "TBD"].contains(status), short == "1H", kickoff > now { kickoff = now }
        if regularTime == nil, FootballStatus.afterRegularTime.contains(short) { regularTime = goals }
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

    /// A scripted change; scripts only hold changes the rules accept.
    mutating func play(_ change: Matchday.Step.Change) {
        switch change {
        case .status(let short, let elapsed): try? setStatus(short, elapsed: elapsed, at: kickoff)
        case .elapsed(let minute): elapsed = minute
        case .event(let type, let detail, let side, let player, let minute):
            try? record(Event(elapsed: minute, side: side, player: player, type: type, detail: detail))
        }
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
