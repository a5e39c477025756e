import Foundation
import HuddleEffects

/// API-Football v3's answers, field for field as its documentation gives them (snake_case where the
/// provider uses it), so games' real adapter reads the stand-in as it reads the provider.
enum APIFootball {
    /// `{get, parameters, errors, results, paging, response}`. `errors` is `[]` when there are none
    /// and an object naming them when there are, as the provider sends it.
    struct Envelope<Item: Encodable>: Encodable {
        let get: String
        let parameters: [String: String]
        let errors: [String: String]
        let response: [Item]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(get, forKey: .get)
            try container.encode(parameters, forKey: .parameters)
            if errors.isEmpty { try container.encode([String](), forKey: .errors) } else { try container.encode(errors, forKey: .errors) }
            try container.encode(response.count, forKey: .results)
            try container.encode(["current": 1, "total": 1], forKey: .paging)
            try container.encode(response, forKey: .response)
        }

        enum Keys: String, CodingKey { case get, parameters, errors, results, paging, response }
    }

    /// One item of `/predictions`: the chances as "45%" strings, with the advice and teams beside them.
    struct Prediction: Encodable {
        struct Predictions: Encodable {
            struct Percent: Encodable {
                let home: String
                let draw: String
                let away: String
            }
            let winner: Team?
            let winOrDraw: Bool
            let advice: String
            let percent: Percent

            private enum CodingKeys: String, CodingKey {
                case winner, advice, percent
                case winOrDraw = "win_or_draw"
            }
        }
        struct Team: Encodable {
            let id: Int
            let name: String
        }
        struct Teams: Encodable {
            let home: Team
            let away: Team
        }
        let predictions: Predictions
        let teams: Teams
    }

    struct Fixture: Encodable {
        struct Details: Encodable {
            let id: Int
            let referee: String?
            let timezone: String
            let date: String
            let timestamp: Int
            let status: Status
        }

        struct Status: Encodable {
            let long: String
            let short: String
            let elapsed: Int?
        }

        struct League: Encodable {
            let id: Int
            let name: String
            let country: String
            let season: Int
            let round: String
        }

        struct Team: Encodable {
            let id: Int
            let name: String
            let logo: String
            let winner: Bool?
        }

        /// `null` before kick-off, written out as the provider writes it.
        struct Goals: Encodable {
            let home: Int?
            let away: Int?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(home, forKey: .home)
                try container.encode(away, forKey: .away)
            }

            enum Keys: String, CodingKey { case home, away }
        }

        let fixture: Details
        let league: League
        let teams: [String: Team]
        let goals: Goals
        let score: [String: Goals]
        /// With `ids=` only, as the provider includes them.
        let events: [Event]?
        let lineups: [Lineup]?
        let statistics: [TeamStatistics]?
    }

    struct Lineup: Encodable {
        struct Entry: Encodable {
            struct Player: Encodable {
                let id: Int
                let name: String
                let number: Int
                let pos: String
                let grid: String?
            }
            let player: Player
        }
        struct Coach: Encodable {
            let id: Int
            let name: String
            let photo: String
        }
        let team: Event.Named
        let coach: Coach
        let formation: String
        let startXI: [Entry]
        let substitutes: [Entry]
    }

    struct TeamStatistics: Encodable {
        struct Line: Encodable {
            let type: String
            /// A count as a number, a share as `"55%"`: the provider mixes them.
            let value: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(type, forKey: .type)
                if let count = Int(value) {
                    try container.encode(count, forKey: .value)
                } else {
                    try container.encode(value, forKey: .value)
                }
            }

            enum Keys: String, CodingKey { case type, value }
        }
        let team: Event.Named
        let statistics: [Line]
    }

    struct Event: Encodable {
        struct Time: Encodable {
            let elapsed: Int
            let extra: Int?
        }

        struct Named: Encodable {
            let id: Int?
            let name: String?
        }

        let time: Time
        let team: Named
        let player: Named
        let assist: Named
        let type: String
        let detail: String
        let comments: String?
    }

    struct Odds: Encodable {
        struct Fixture: Encodable {
            let id: Int
            let timezone: String
            let date: String
            let timestamp: Int
        }

        struct Bookmaker: Encodable {
            let id: Int
            let name: String
            let bets: [Bet]
        }

        struct Bet: Encodable {
            let id: Int
            let name: String
            let values: [Value]
        }

        struct Value: Encodable {
            let value: String
            let odd: String
        }

        let fixture: Fixture
        let update: String
        let bookmakers: [Bookmaker]
    }
}

extension FootballFixture {
    /// The provider's fixture, with events (and the lineups and statistics slots) when `detailed`.
    func wire(detailed: Bool) -> APIFootball.Fixture {
        let date = ISO8601DateFormatter().string(from: kickoff).replacingOccurrences(of: "Z", with: "+00:00")
        let started = status != "NS" && status != "TBD" && status != "PST" && status != "CANC"
        let finished = ["FT", "AET", "PEN", "AWD", "WO"].contains(status)
        func team(_ name: String, winner: Bool?) -> APIFootball.Fixture.Team {
            .init(
                id: Self.teamID(name), name: name, logo: "https://media.huddle.dev/football/teams/\(Self.teamID(name)).png", winner: winner)
        }
        let goals = started ? APIFootball.Fixture.Goals(home: self.goals.home, away: self.goals.away) : .init(home: nil, away: nil)
        let homeWins: Bool? = finished ? (self.goals.home == self.goals.away ? nil : self.goals.home > self.goals.away) : nil
        return APIFootball.Fixture(
            fixture: .init(
                id: id, referee: nil, timezone: "UTC", date: date, timestamp: Int(kickoff.timeIntervalSince1970),
                status: .init(long: FootballStatus.names[status] ?? status, short: status, elapsed: elapsed)),
            league: .init(
                id: league.id, name: league.name, country: "World",
                season: Calendar(identifier: .gregorian).component(.year, from: kickoff),
                round: "Regular Season - 1"),
            teams: ["home": team(home, winner: homeWins), "away": team(away, winner: homeWins.map { !$0 })],
            goals: goals, score: scores(finished: finished, goals: goals),
            events: detailed ? events.map { wire($0) } : nil, lineups: detailed ? wireLineups : nil,
            statistics: detailed ? wireStatistics : nil)
    }

    /// `fulltime` is the score after regular time once the match is over; `extratime` the goals of
    /// extra time once it began, as the provider splits them.
    private func scores(finished: Bool, goals: APIFootball.Fixture.Goals) -> [String: APIFootball.Fixture.Goals] {
        let none = APIFootball.Fixture.Goals(home: nil, away: nil)
        var scores = ["fulltime": none, "extratime": none]
        if finished { scores["fulltime"] = regularTime.map { .init(home: $0.home, away: $0.away) } ?? goals }
        if let regular = regularTime {
            scores["extratime"] = .init(home: self.goals.home - regular.home, away: self.goals.away - regular.away)
        }
        return scores
    }

    /// Both teams' lineups once they are announced (`lineupsFrom`), `[]` before, as the provider does.
    private var wireLineups: [APIFootball.Lineup] {
        guard Effects.system.now() >= lineupsFrom || !FootballStatus.notStarted.contains(status) else { return [] }
        return [home, away].map { team in
            let squad = FootballSquads.squad(of: team)
            func entries(_ players: [FootballSquads.Player]) -> [APIFootball.Lineup.Entry] {
                players.map {
                    .init(player: .init(id: Self.teamID(team + $0.name), name: $0.name, number: $0.number, pos: $0.position, grid: nil))
                }
            }
            return .init(
                team: .init(id: Self.teamID(team), name: team),
                coach: .init(
                    id: Self.teamID(squad.coach), name: squad.coach,
                    photo: "https://media.huddle.dev/football/coachs/\(Self.teamID(squad.coach)).png"),
                formation: squad.formation, startXI: entries(squad.startXI), substitutes: entries(squad.substitutes))
        }
    }

    private var wireStatistics: [APIFootball.TeamStatistics] {
        guard let lines = statistics else { return [] }
        return [
            .init(team: .init(id: Self.teamID(home), name: home), statistics: lines.map { .init(type: $0.type, value: $0.home) }),
            .init(team: .init(id: Self.teamID(away), name: away), statistics: lines.map { .init(type: $0.type, value: $0.away) }),
        ]
    }

    private func wire(_ event: Event) -> APIFootball.Event {
        let team = event.side == .home ? home : away
        return .init(
            time: .init(elapsed: event.elapsed, extra: nil), team: .init(id: Self.teamID(team), name: team),
            player: .init(id: Self.teamID(event.player), name: event.player), assist: .init(id: nil, name: nil), type: event.type,
            detail: event.detail, comments: nil)
    }

    /// As `/predictions?fixture=` answers: the chances a test set, or the odds' implied chances
    /// (1 / price, shared out to 100); nil with neither.
    var wirePrediction: APIFootball.Prediction? {
        var chances = prediction
        if chances == nil, let odds, let home = Double(odds.home), let draw = Double(odds.draw), let away = Double(odds.away) {
            let implied = [1 / home, 1 / draw, 1 / away], total = implied.reduce(0, +)
            let shares = implied.map { Int(($0 / total * 100).rounded()) }
            chances = (shares[0], shares[1], 100 - shares[0] - shares[1])
        }
        guard let chances else { return nil }
        let homeTeam = APIFootball.Prediction.Team(id: Self.teamID(home), name: home)
        let awayTeam = APIFootball.Prediction.Team(id: Self.teamID(away), name: away)
        let favourite = chances.home >= chances.away ? homeTeam : awayTeam
        return .init(
            predictions: .init(
                winner: favourite, winOrDraw: true, advice: "Double chance : \(favourite.name) or draw",
                percent: .init(home: "\(chances.home)%", draw: "\(chances.draw)%", away: "\(chances.away)%")),
            teams: .init(home: homeTeam, away: awayTeam))
    }

    /// "Match Winner" from one bookmaker, as `/odds?fixture=` answers; nil without odds.
    var wireOdds: APIFootball.Odds? {
        guard let odds else { return nil }
        let date = ISO8601DateFormatter().string(from: kickoff).replacingOccurrences(of: "Z", with: "+00:00")
        let values = [("Home", odds.home), ("Draw", odds.draw), ("Away", odds.away)].map { APIFootball.Odds.Value(value: $0, odd: $1) }
        return .init(
            fixture: .init(id: id, timezone: "UTC", date: date, timestamp: Int(kickoff.timeIntervalSince1970)),
            update: ISO8601DateFormatter().string(from: Effects.system.now()).replacingOccurrences(of: "Z", with: "+00:00"),
            bookmakers: [.init(id: 8, name: "Bet365", bets: [.init(id: 1, name: "Match Winner", values: values)])])
    }
}
