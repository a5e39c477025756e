import Contracts
import Foundation
import ServiceFeatures

/// API-Football v3's `/fixtures` answer, the fields games reads, named as the provider names them.
/// Written apart from the stand-in's `APIFootball` shapes on purpose: with shared types, a field both
/// sides misread the same way would pass against the stand-in and fail against the provider.
enum APIFootballAnswer {
    /// The whole answer: `response` items and `errors`.
    typealias Envelope = APIFootballTransport.Envelope<Item>

    struct Item: Decodable {
        struct Fixture: Decodable {
            struct Status: Decodable {
                let short: String
                let elapsed: Int?
            }
            let id: Int
            let date: String
            let status: Status
        }

        struct League: Decodable {
            let id: Int
            let name: String
            let country: String?
        }

        struct Team: Decodable {
            let id: Int
            let name: String
            let logo: String?
        }

        struct Goals: Decodable {
            let home: Int?
            let away: Int?
        }

        struct Event: Decodable {
            struct Time: Decodable {
                let elapsed: Int
                let extra: Int?
            }
            struct Named: Decodable {
                let id: Int?
                let name: String?
            }
            let time: Time
            let team: Named
            let player: Named
            let assist: Named?
            let type: String
            let detail: String
        }

        struct Lineup: Decodable {
            struct Entry: Decodable {
                struct Player: Decodable {
                    let name: String?
                    let number: Int?
                    let pos: String?
                }
                let player: Player
            }
            struct Coach: Decodable {
                let name: String?
            }
            let team: Event.Named
            let coach: Coach?
            let formation: String?
            let startXI: [Entry]?
            let substitutes: [Entry]?
        }

        struct TeamStatistics: Decodable {
            struct Line: Decodable {
                let type: String
                /// A count (`3`), a share (`"55%"`) or `null`.
                let value: String?

                private enum Keys: String, CodingKey { case type, value }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: Keys.self)
                    type = try container.decode(String.self, forKey: .type)
                    if let count = try? container.decode(Int.self, forKey: .value) {
                        value = String(count)
                    } else {
                        value = try? container.decode(String.self, forKey: .value)
                    }
                }
            }
            let team: Event.Named
            let statistics: [Line]
        }

        let fixture: Fixture
        let league: League
        let teams: [String: Team]
        let goals: Goals
        let score: [String: Goals]?
        let events: [Event]?
        let lineups: [Lineup]?
        let statistics: [TeamStatistics]?
    }
}

/// One fixture as the provider reports it, before games gives it an id and a version.
struct ReportedMatch: Equatable, Sendable {
    let fixtureID: Int
    let league: Match.League
    let kickoff: Date
    let status: MatchStatus
    let minute: Int?
    let home: Match.Team
    let away: Match.Team
    let score: Match.Score
    let halftime: Match.Score?
    /// At the end of regular time; the provider gives it once the match is over.
    var fulltime: Match.Score? = nil
    /// Nil when the call did not include events (only `ids=` does).
    let events: [Match.Event]?
    /// Nil when the call did not include them, or the provider has none yet.
    var lineups: Match.Lineups? = nil
    var statistics: [Match.Statistic]? = nil
}

extension APIFootballAnswer.Item {
    /// The report, or nil for an item games cannot read (unknown status, missing team, bad date):
    /// one odd fixture never costs the others.
    var report: ReportedMatch? {
        guard let home = teams["home"], let away = teams["away"], let status = MatchStatus(rawValue: fixture.status.short),
            let kickoff = HuddleJSON.parseRFC3339(fixture.date)
        else { return nil }
        func both(_ goals: Goals?) -> Match.Score? {
            goals.flatMap { g in g.home.flatMap { h in g.away.map { Match.Score(home: h, away: $0) } } }
        }
        let halftime = both(score?["halftime"])
        // Only a finished match has a regular-time result to settle on.
        let fulltime = MatchStatus.finished.contains(status) ? both(score?["fulltime"]) : nil
        return ReportedMatch(
            fixtureID: fixture.id, league: .init(id: league.id, name: league.name, country: league.country), kickoff: kickoff,
            status: status, minute: fixture.status.elapsed, home: .init(id: home.id, name: home.name, logo: home.logo),
            away: .init(id: away.id, name: away.name, logo: away.logo), score: .init(home: goals.home ?? 0, away: goals.away ?? 0),
            halftime: halftime, fulltime: fulltime, events: events.map { $0.compactMap { event($0, homeID: home.id, awayID: away.id) } },
            lineups: lineups(homeID: home.id, awayID: away.id), statistics: statistics(homeID: home.id, awayID: away.id))
    }

    /// Both teams' lineups, or nil until the provider has both.
    private func lineups(homeID: Int, awayID: Int) -> Match.Lineups? {
        func lineup(of team: Int) -> Match.Lineup? {
            guard let entry = lineups?.first(where: { $0.team.id == team }) else { return nil }
            func players(_ entries: [Lineup.Entry]?) -> [Match.LineupPlayer] {
                (entries ?? []).map { Match.LineupPlayer(name: $0.player.name ?? "", number: $0.player.number, position: $0.player.pos) }
            }
            return Match.Lineup(
                formation: entry.formation, startXI: players(entry.startXI), substitutes: players(entry.substitutes),
                coach: entry.coach?.name)
        }
        guard let home = lineup(of: homeID), let away = lineup(of: awayID) else { return nil }
        return Match.Lineups(home: home, away: away)
    }

    /// One line per statistic the provider gives either team, in its order; nil while it has none.
    private func statistics(homeID: Int, awayID: Int) -> [Match.Statistic]? {
        guard let statistics, !statistics.isEmpty else { return nil }
        let home = statistics.first { $0.team.id == homeID }?.statistics ?? []
        let away = statistics.first { $0.team.id == awayID }?.statistics ?? []
        var types: [String] = []
        for line in home + away where !types.contains(line.type) { types.append(line.type) }
        return types.map { type in
            Match.Statistic(
                type: type, home: home.first { $0.type == type }?.value ?? nil, away: away.first { $0.type == type }?.value ?? nil)
        }
    }

    private func event(_ event: Event, homeID: Int, awayID: Int) -> Match.Event? {
        let side: Match.Side? = event.team.id == homeID ? .home : event.team.id == awayID ? .away : nil
        let kinds: [String: Match.Event.Kind] = ["Goal": .goal, "Card": .card, "subst": .substitution, "Var": .var]
        guard let side, let kind = kinds[event.type] else { return nil }
        return Match.Event(
            minute: event.time.elapsed, extra: event.time.extra, team: side, type: kind, detail: event.detail,
            player: event.player.name ?? "", assist: event.assist?.name)
    }
}
