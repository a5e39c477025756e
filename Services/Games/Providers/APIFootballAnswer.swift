import Contracts
import Foundation

/// API-Football v3's `/fixtures` answer, the fields games reads, named as the provider names them.
/// Written apart from the stand-in's `APIFootball` shapes on purpose: with shared types, a field both
/// sides misread the same way would pass against the stand-in and fail against the provider.
struct APIFootballAnswer: Decodable {
    let errors: [String: String]
    let response: [Item]

    private enum Keys: String, CodingKey { case errors, response }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        // `[]` when there are none, an object naming them when there are.
        errors = (try? container.decode([String: String].self, forKey: .errors)) ?? [:]
        response = try container.decodeIfPresent([Item].self, forKey: .response) ?? []
    }

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

        let fixture: Fixture
        let league: League
        let teams: [String: Team]
        let goals: Goals
        let score: [String: Goals]?
        let events: [Event]?
    }
}

/// One fixture as the provider reports it, before games gives it an id and a version.
struct ReportedMatch: Equatable, Sendable {
    let fixtureID: Int
    let league: Match.League
    let kickoff: Date
    let status: String
    let minute: Int?
    let home: Match.Team
    let away: Match.Team
    let score: Match.Score
    let halftime: Match.Score?
    /// Nil when the call did not include events (only `ids=` does).
    let events: [Match.Event]?
}

extension APIFootballAnswer.Item {
    /// The report, or nil for an item games cannot read (unknown status, missing team, bad date):
    /// one odd fixture never costs the others.
    var report: ReportedMatch? {
        guard let home = teams["home"], let away = teams["away"], MatchStatus.all.contains(fixture.status.short),
            let kickoff = HuddleJSON.parseRFC3339(fixture.date)
        else { return nil }
        let halftime = score?["halftime"].flatMap { goals in goals.home.flatMap { h in goals.away.map { Match.Score(home: h, away: $0) } } }
        return ReportedMatch(
            fixtureID: fixture.id, league: .init(id: league.id, name: league.name, country: league.country), kickoff: kickoff,
            status: fixture.status.short, minute: fixture.status.elapsed, home: .init(id: home.id, name: home.name, logo: home.logo),
            away: .init(id: away.id, name: away.name, logo: away.logo), score: .init(home: goals.home ?? 0, away: goals.away ?? 0),
            halftime: halftime, events: events.map { $0.compactMap { event($0, homeID: home.id, awayID: away.id) } })
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
