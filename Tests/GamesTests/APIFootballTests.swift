import AsyncHTTPClient
import Configuration
import Contracts
import Foundation
import Logging
import ProviderStandIns
import ServiceFeatures
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import GamesService

/// Games' API-Football adapter: the provider's answers as documented, and its real protocol against
/// the stand-in (key, rate limit, refusals, down).
@Suite("API-Football adapter")
struct APIFootballTests {
    /// A `/fixtures?ids=` answer written from API-Football v3's documented shape.
    static let recorded = """
        {"get":"fixtures","parameters":{"ids":"868105-1"},"errors":[],"results":2,"paging":{"current":1,"total":1},
         "response":[
          {"fixture":{"id":868105,"referee":"M. Oliver","timezone":"UTC","date":"2026-11-22T15:00:00+00:00","timestamp":1795359600,
                      "periods":{"first":1795359600,"second":null},"venue":{"id":556,"name":"Old Trafford","city":"Manchester"},
                      "status":{"long":"Second Half","short":"2H","elapsed":67}},
           "league":{"id":39,"name":"Premier League","country":"England","logo":"https://media.api-sports.io/football/leagues/39.png",
                     "flag":"https://media.api-sports.io/flags/gb.svg","season":2026,"round":"Regular Season - 12"},
           "teams":{"home":{"id":33,"name":"Manchester United","logo":"https://media.api-sports.io/football/teams/33.png","winner":null},
                    "away":{"id":40,"name":"Liverpool","logo":"https://media.api-sports.io/football/teams/40.png","winner":null}},
           "goals":{"home":1,"away":1},
           "score":{"halftime":{"home":0,"away":1},"fulltime":{"home":null,"away":null},"extratime":{"home":null,"away":null},
                    "penalty":{"home":null,"away":null}},
           "events":[
             {"time":{"elapsed":23,"extra":null},"team":{"id":40,"name":"Liverpool","logo":null},"player":{"id":306,"name":"M. Salah"},
              "assist":{"id":null,"name":null},"type":"Goal","detail":"Penalty","comments":null},
             {"time":{"elapsed":45,"extra":2},"team":{"id":33,"name":"Manchester United","logo":null},"player":{"id":18,"name":"B. Fernandes"},
              "assist":{"id":null,"name":null},"type":"Card","detail":"Yellow Card","comments":"Argument"},
             {"time":{"elapsed":58,"extra":null},"team":{"id":33,"name":"Manchester United","logo":null},"player":{"id":909,"name":"M. Rashford"},
              "assist":{"id":18,"name":"B. Fernandes"},"type":"Goal","detail":"Normal Goal","comments":null},
             {"time":{"elapsed":61,"extra":null},"team":{"id":40,"name":"Liverpool","logo":null},"player":{"id":1100,"name":"D. Núñez"},
              "assist":{"id":null,"name":null},"type":"Var","detail":"Goal cancelled","comments":null},
             {"time":{"elapsed":64,"extra":null},"team":{"id":40,"name":"Liverpool","logo":null},"player":{"id":2678,"name":"C. Gakpo"},
              "assist":{"id":1100,"name":"D. Núñez"},"type":"subst","detail":"Substitution 1","comments":null}],
           "lineups":[],"statistics":[]},
          {"fixture":{"id":1,"timezone":"UTC","date":"2026-11-22T17:30:00+00:00","timestamp":1795368600,
                      "status":{"long":"Something New","short":"XYZ","elapsed":null}},
           "league":{"id":39,"name":"Premier League","country":"England","season":2026},
           "teams":{"home":{"id":1,"name":"A"},"away":{"id":2,"name":"B"}},"goals":{"home":null,"away":null}}]}
        """

    @Test("a recorded answer reads into matches: status, minute, score, half-time, events by side; an unknown status is skipped")
    func recordedAnswer() throws {
        let answer = try JSONDecoder().decode(APIFootballAnswer.Envelope.self, from: Data(Self.recorded.utf8))
        #expect(answer.errors.isEmpty)
        let reports = answer.response.compactMap(\.report)
        #expect(reports.count == 1)
        let match = try #require(reports.first)
        #expect(match.fixtureID == 868105 && match.status == .secondHalf && match.minute == 67)
        #expect(match.kickoff == Date(timeIntervalSince1970: 1_795_359_600))
        #expect(match.home.name == "Manchester United" && match.away.id == 40)
        #expect(match.score == .init(home: 1, away: 1) && match.halftime == .init(home: 0, away: 1))
        let events = try #require(match.events)
        #expect(events.map(\.type) == [.goal, .card, .goal, .var, .substitution])
        #expect(events.map(\.team) == [.away, .home, .home, .away, .away])
        #expect(events[1].extra == 2 && events[2].assist == "B. Fernandes" && events[3].detail == "Goal cancelled")
    }

    @Test("errors as an object are the provider's refusal")
    func refusalShape() throws {
        let refused = #"{"get":"fixtures","parameters":[],"errors":{"token":"Error/Missing application key."},"results":0,"response":[]}"#
        let answer = try JSONDecoder().decode(APIFootballAnswer.Envelope.self, from: Data(refused.utf8))
        #expect(answer.errors == ["token": "Error/Missing application key."])
    }

    static func withStandIn(perMinute: Int = 300, _ body: (String) async throws -> Void) async throws {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": String(perMinute)]))
        try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stand-in"), onListening: onListening)
        }) { url in try await body(url) }
    }

    static func client(_ url: String, key: String = "huddle-dev-football-key", timeout: Duration = .seconds(5)) -> APIFootballClient {
        APIFootballClient(settings: .init(baseURL: url, key: key, timeout: timeout), http: HTTPClient.shared)
    }

    @Test("against the stand-in: a match kicks off, scores, a goal is cancelled by VAR; live, by day and by id")
    func againstStandIn() async throws {
        try await Self.withStandIn { url in
            let feed = FootballControlClient(baseURL: url)
            let id = try await feed.schedule(.init(home: "Levadia", away: "Flora", kickoff: Date(timeIntervalSince1970: 1_795_456_800)))
            let client = Self.client(url)
            #expect(try await client.fixtures(on: "2026-11-23").matches.map(\.status) == [.notStarted])
            #expect(try await client.live().matches.isEmpty)

            try await feed.setStatus(id, "1H")
            for _ in 0..<2 { try await feed.record(id, .goal(.home, by: "R. Kirss", at: 20)) }
            try await feed.record(id, .init(type: "Var", detail: "Goal cancelled", team: .home, player: "R. Kirss", elapsed: 20))
            let live = try await client.live()
            #expect(live.matches.map(\.score) == [.init(home: 1, away: 0)])
            #expect(live.remaining != nil)
            let detailed = try #require(try await client.fixtures(ids: [id]).matches.first)
            #expect(detailed.events?.map(\.type) == [.goal, .goal, .var])
            #expect(detailed.home.name == "Levadia" && detailed.status == .firstHalf)
        }
    }

    @Test("a wrong key is a refusal, past the allowance is 429 with its wait, a provider that is down is unavailable")
    func failures() async throws {
        try await Self.withStandIn(perMinute: 2) { url in
            try await withinOneMinuteWindow()
            await #expect(throws: APIFootballClient.Failure.self) { try await Self.client(url, key: "wrong").live() }
            let refused = await #expect(throws: APIFootballClient.Failure.self) { try await Self.client(url, key: "wrong").live() }
            #expect(refused.map { if case .refused(let errors) = $0 { errors["token"] != nil } else { false } } == true)
            let limited = await #expect(throws: APIFootballClient.Failure.self) { try await Self.client(url).live() }
            #expect(limited == .rateLimited(retryAfterSeconds: 60))
        }
        let down = await #expect(throws: APIFootballClient.Failure.self) {
            try await Self.client("http://127.0.0.1:1", timeout: .milliseconds(500)).live()
        }
        #expect(down.map { if case .unavailable = $0 { true } else { false } } == true)
    }
}
