import Foundation

/// A simulated matchday, the same for the same seed: ten fixtures of twenty clubs in two leagues,
/// played on a clock `speed` times faster than real time — one in play from the start (with a goal
/// VAR cancels), one already finished, the rest kicking off every quarter of an hour, one postponed
/// and one cancelled shortly after the stand-in starts. Each fixture's script says what happens at
/// which match minute; `FootballFeed` plays it as time passes.
struct Matchday: Sendable {
    /// What happens to a fixture, at minutes of match time from kickoff (negative: before it).
    struct Step: Sendable, Equatable {
        enum Change: Sendable, Equatable {
            case status(String, elapsed: Int?)
            case elapsed(Int)
            case event(type: String, detail: String, side: FootballFixture.Side, player: String, elapsed: Int)
        }
        let at: Double
        let change: Change
    }

    struct Fixture: Sendable {
        let request: FootballControl.NewFixture
        let steps: [Step]
    }

    let fixtures: [Fixture]
    /// Match minutes per real minute.
    let speed: Double
    /// When the matchday began: its kickoffs are counted from it.
    let start: Date

    /// When the last fixture of a matchday begun at `start` ends: its last kickoff, and a match
    /// (108 match minutes with half-time and added time) later.
    static func lastWhistle(start: Date, speed: Double) -> Date {
        start.addingTimeInterval((3 + 15 * 7) * 60 + 108 / speed * 60)
    }

    static let clubs = [
        "Northbridge Rovers", "Harbour City", "Kestrel Athletic", "Millbank Town", "Ashford United", "Redcliff Wanderers",
        "Stonegate Albion", "Lakeside Harriers", "Eastmoor Rangers", "Port Vale Dynamo", "Westholm FC", "Brackenfield",
        "Caldera Sporting", "Greyfriars", "Ironbridge City", "Saltmarsh Borough", "Thornbury Celtic", "Oldcastle Swifts",
        "Highmoor Vale", "Dunmere Olympic",
    ]
    static let leagues = [
        FootballControl.NewFixture.League(id: 1001, name: "Huddle Premier"), .init(id: 1002, name: "Huddle Championship"),
    ]

    /// The day's fixtures for `seed`, kickoffs counted from `start`.
    init(seed: UInt64, start: Date, speed: Double) {
        self.speed = speed
        self.start = start
        var random = SplitMix64(seed: seed)
        let clubs = Self.clubs.shuffled(using: &random)
        /// Real minutes per match minute.
        let scale = 1 / speed
        // Kickoffs in real minutes from the start: one in play, one finished, then every 15 minutes.
        let kickoffs: [Double] = [-40 * scale, -150 * scale] + (0..<8).map { 3 + 15 * Double($0) }
        fixtures = kickoffs.enumerated().map { index, minutes in
            let home = clubs[(2 * index) % clubs.count], away = clubs[(2 * index + 1) % clubs.count]
            let odds = Self.odds(&random)
            let request = FootballControl.NewFixture(
                home: home, away: away, kickoff: start.addingTimeInterval(minutes * 60), league: Self.leagues[index % 2],
                odds: .init(home: odds.0, draw: odds.1, away: odds.2))
            let steps: [Step]
            switch index {
            // Postponed before the day began; cancelled a few minutes in (match time before its kickoff).
            case 8: steps = [Step(at: -.infinity, change: .status("PST", elapsed: nil))]
            case 9: steps = [Step(at: -(minutes - 4) * speed, change: .status("CANC", elapsed: nil))]
            default: steps = Self.script(home: home, away: away, cancelledGoal: index == 0, random: &random)
            }
            return Fixture(request: request, steps: steps)
        }
    }

    /// Kickoff, a minute at a time to half-time, the second half, full time; goals, cards and
    /// substitutions at random minutes; with `cancelledGoal`, a goal VAR takes back two minutes later.
    static func script(home: String, away: String, cancelledGoal: Bool, random: inout SplitMix64) -> [Step] {
        // Match minutes: the first half runs 0–47 (two added), half-time to 62, the second half 62–108.
        func clock(_ elapsed: Int) -> Double { elapsed <= 45 ? Double(elapsed) : Double(elapsed) + 16 }
        var steps = [Step(at: 0, change: .status("1H", elapsed: 0))]
        steps += (1...45).map { Step(at: Double($0), change: .elapsed($0)) }
        steps += [Step(at: 47, change: .status("HT", elapsed: 45)), Step(at: 62, change: .status("2H", elapsed: 46))]
        steps += (47...90).map { Step(at: clock($0), change: .elapsed($0)) }
        steps.append(Step(at: 108, change: .status("FT", elapsed: 90)))
        let squads = [FootballFixture.Side.home: FootballSquads.squad(of: home), .away: FootballSquads.squad(of: away)]
        func side(_ random: inout SplitMix64) -> FootballFixture.Side { random.next(below: 2) == 0 ? .home : .away }
        func outfield(_ side: FootballFixture.Side, _ random: inout SplitMix64) -> String {
            squads[side]!.startXI[1 + random.next(below: 10)].name
        }
        var events: [Step] = []
        func add(_ type: String, _ detail: String, _ side: FootballFixture.Side, _ player: String, _ elapsed: Int) {
            events.append(
                Step(at: clock(elapsed) + 0.5, change: .event(type: type, detail: detail, side: side, player: player, elapsed: elapsed)))
        }
        for _ in 0..<random.next(below: 5) {
            let scorer = side(&random)
            let detail = ["Normal Goal", "Normal Goal", "Penalty", "Own Goal"][random.next(below: 4)]
            // An own goal counts for `scorer` and is scored by a player of the other side.
            let player = outfield(detail == "Own Goal" ? (scorer == .home ? .away : .home) : scorer, &random)
            add("Goal", detail, scorer, player, 1 + random.next(below: 90))
        }
        for _ in 0..<(1 + random.next(below: 4)) {
            let booked = side(&random)
            add(
                "Card", random.next(below: 6) == 0 ? "Red Card" : "Yellow Card", booked, outfield(booked, &random),
                10 + random.next(below: 80))
        }
        for team in [FootballFixture.Side.home, .away] {
            for number in 1...3 {
                add(
                    "subst", "Substitution \(number)", team, squads[team]!.substitutes[3 + number].name,
                    55 + 10 * (number - 1) + random.next(below: 8))
            }
        }
        if cancelledGoal {
            // In the first half, after the stand-in starts, so a newcomer sees it given and taken back.
            let scorer = side(&random)
            let player = outfield(scorer, &random)
            add("Goal", "Normal Goal", scorer, player, 42)
            add("Var", "Goal cancelled", scorer, player, 44)
        }
        return (steps + events).enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    private static func odds(_ random: inout SplitMix64) -> (String, String, String) {
        func decimal(_ low: Int, _ spread: Int) -> String {
            let hundredths = low + random.next(below: spread)
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        }
        return (decimal(140, 300), decimal(280, 120), decimal(160, 400))
    }
}
