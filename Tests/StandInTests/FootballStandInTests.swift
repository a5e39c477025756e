import Configuration
import Foundation
import Logging
import NIOHTTP1
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import ProviderStandIns

/// The stand-in answers API-Football v3's shapes, so games' adapter can be tested against the
/// provider's real protocol; its test controls make matches happen.
@Suite("Football from the stand-in")
struct FootballStandInTests {
    static let key = ["x-apisports-key": "huddle-dev-football-key"]

    static func with(_ settings: [String: String] = [:], _ body: (TestClient) async throws -> Void) async throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"].merging(settings) { $1 }))
        try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stand-in"), onListening: onListening)
        }) { url in try await body(TestClient(baseURL: url)) }
    }

    static func time(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func json(_ response: TestClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    static func fixtures(_ response: TestClient.Response) throws -> [[String: Any]] {
        try #require(try json(response)["response"] as? [[String: Any]])
    }

    @Test("a match is created, kicks off, scores, has a goal cancelled by VAR and ends, in the provider's shapes")
    func matchInProviderShapes() async throws {
        try await Self.with { feed in
            let created = try await feed.raw(
                .POST, "/test/football/fixtures",
                json: FootballControl.NewFixture(home: "Levadia", away: "Flora", kickoff: Self.time("2026-11-23T18:00:00Z")))
            let id = try #require(try Self.json(created)["id"] as? Int)

            let today = try Self.fixtures(try await feed.raw(.GET, "/fixtures?date=2026-11-23", headers: Self.key))
            #expect(today.count == 1)
            let fixture = try #require(today.first?["fixture"] as? [String: Any])
            #expect(fixture["id"] as? Int == id && fixture["date"] as? String == "2026-11-23T18:00:00+00:00")
            #expect((fixture["status"] as? [String: Any])?["short"] as? String == "NS")
            #expect(((today.first?["teams"] as? [String: Any])?["home"] as? [String: Any])?["name"] as? String == "Levadia")
            #expect(try Self.fixtures(try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)).isEmpty)

            _ = try await feed.raw(
                .POST, "/test/football/fixtures/\(id)/status", json: FootballControl.StatusChange(status: "1H", elapsed: 1))
            for (minute, side, player) in [
                (12, FootballControl.Side.home, "R. Kirss"), (30, .home, "R. Kirss"), (44, .away, "K. Sappinen"),
            ] {
                let goal = FootballControl.NewEvent(type: "Goal", detail: "Normal Goal", team: side, player: player, elapsed: minute)
                #expect(try await feed.raw(.POST, "/test/football/fixtures/\(id)/events", json: goal).status == 200)
            }
            let cancelled = FootballControl.NewEvent(type: "Var", detail: "Goal cancelled", team: .home, player: "R. Kirss", elapsed: 31)
            _ = try await feed.raw(.POST, "/test/football/fixtures/\(id)/events", json: cancelled)
            let live = try Self.fixtures(try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key))
            #expect(live.count == 1)
            #expect(live.first?["goals"] as? [String: Int] == ["home": 1, "away": 1])

            _ = try await feed.raw(
                .POST, "/test/football/fixtures/\(id)/status", json: FootballControl.StatusChange(status: "FT", elapsed: 90))
            let detailed = try Self.fixtures(try await feed.raw(.GET, "/fixtures?ids=\(id)", headers: Self.key))
            let events = try #require(detailed.first?["events"] as? [[String: Any]])
            #expect(events.map { $0["detail"] as? String } == ["Normal Goal", "Normal Goal", "Normal Goal", "Goal cancelled"])
            #expect(((detailed.first?["fixture"] as? [String: Any])?["status"] as? [String: Any])?["long"] as? String == "Match Finished")
            #expect(try Self.fixtures(try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)).isEmpty)
        }
    }

    @Test("a fixture set in play before its kickoff kicked off then")
    func earlyKickoff() async throws {
        try await Self.with { feed in
            let kickoff = Date().addingTimeInterval(3600)
            let created = try await feed.raw(
                .POST, "/test/football/fixtures", json: FootballControl.NewFixture(home: "Levadia", away: "Flora", kickoff: kickoff))
            let id = try #require(try Self.json(created)["id"] as? Int)
            _ = try await feed.raw(
                .POST, "/test/football/fixtures/\(id)/status", json: FootballControl.StatusChange(status: "1H", elapsed: 1))
            let fixture = try #require(try Self.fixtures(try await feed.raw(.GET, "/fixtures?ids=\(id)", headers: Self.key)).first)
            let date = try #require((fixture["fixture"] as? [String: Any])?["date"] as? String)
            let started = try #require(ISO8601DateFormatter().date(from: date))
            #expect(started <= Date() && started > Date().addingTimeInterval(-60))
        }
    }

    @Test("fixture ids are new after a restart, and fit in 32 bits")
    func newIDsAfterRestart() async {
        // A stand-in started a second later hands out other ids, so stores that kept the first one's
        // matches never see them replayed from the start.
        let started = Date(timeIntervalSince1970: 1_795_000_000)
        let request = FootballControl.NewFixture(home: "Levadia", away: "Flora", kickoff: started)
        var first: [Int] = []
        let before = FootballFeed(started: started), after = FootballFeed(started: started.addingTimeInterval(1))
        for _ in 0..<20 { first.append(await before.add(request)) }
        let next = await after.add(request)
        #expect(!first.contains(next))
        #expect(first.allSatisfy { $0 < Int(Int32.max) } && next < Int(Int32.max))
    }

    @Test("a stand-in restarted during its matchday continues it (same fixtures, ids and state); one restarted after it begins a new one")
    func matchdayContinues() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("matchday-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        func day(at now: Date) async -> [FootballFixture] {
            let standIn = FootballStandIn(key: "k", perMinute: 100)
            await standIn.simulate(seed: 1, speed: 10, continuing: file, now: now)
            return await standIn.feed.fixtures(ids: (0..<10).map { FootballFeed.firstID(at: start) + $0 })
        }
        let first = await day(at: start)
        #expect(first.count == 10)
        // Ten minutes later the match in play from the start is further on, under the same id; no second day.
        let later = start.addingTimeInterval(600)
        let continued = await day(at: later)
        #expect(continued.map(\.id) == first.map(\.id))
        let reference = FootballFeed(started: start)
        await reference.add(Matchday(seed: 1, start: start, speed: 10))
        await reference.advance(to: later)
        let expected = await reference.fixtures(ids: first.map(\.id))
        #expect(continued.map(\.status) == expected.map(\.status) && continued.map(\.elapsed) == expected.map(\.elapsed))
        // Restarted once the day is over: a new one, with new ids.
        let over = Matchday.lastWhistle(start: start, speed: 10).addingTimeInterval(1)
        #expect(await day(at: over).isEmpty)
    }

    @Test("odds come as the 'Match Winner' market, and change when the test says so")
    func odds() async throws {
        try await Self.with { feed in
            let created = try await feed.raw(
                .POST, "/test/football/fixtures",
                json: FootballControl.NewFixture(
                    home: "Tammeka", away: "Kalju", kickoff: Self.time("2026-11-24T16:00:00Z"),
                    odds: .init(home: "2.10", draw: "3.30", away: "3.40")))
            let id = try #require(try Self.json(created)["id"] as? Int)
            func market() async throws -> [String: String] {
                let answer = try Self.fixtures(try await feed.raw(.GET, "/odds?fixture=\(id)", headers: Self.key))
                let bet = (((answer.first?["bookmakers"] as? [[String: Any]])?.first?["bets"]) as? [[String: Any]])?.first
                #expect(bet?["name"] as? String == "Match Winner")
                let values = bet?["values"] as? [[String: String]] ?? []
                return Dictionary(
                    uniqueKeysWithValues: values.compactMap { value in value["value"].flatMap { key in value["odd"].map { (key, $0) } } })
            }
            #expect(try await market() == ["Home": "2.10", "Draw": "3.30", "Away": "3.40"])
            #expect(
                try await feed.raw(.PUT, "/test/football/fixtures/\(id)/odds", json: ["home": "1.85", "draw": "3.50", "away": "4.20"])
                    .status
                    == 200)
            #expect(try await market() == ["Home": "1.85", "Draw": "3.50", "Away": "4.20"])
            #expect(
                try await feed.raw(.PUT, "/test/football/fixtures/\(id)/odds", json: ["home": "0.5", "draw": "3", "away": "4"]).status
                    == 400)
        }
    }

    @Test("without the key the provider answers 200 with errors.token; past the allowance, 429 with Retry-After")
    func keyAndRateLimit() async throws {
        try await Self.with(["standin.football.perminute": "3"]) { feed in
            try await withinOneMinuteWindow()
            let keyless = try await feed.raw(.GET, "/fixtures?live=all")
            #expect(keyless.status == 200)
            #expect((try Self.json(keyless)["errors"] as? [String: String])?["token"] != nil)
            #expect(try Self.json(keyless)["results"] as? Int == 0)
            let second = try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)
            #expect(second.header("X-RateLimit-Remaining") == "1")
            #expect((try Self.json(second)["errors"] as? [Any])?.isEmpty == true)
            _ = try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)
            let refused = try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "60")
        }
    }

    @Test("unknown statuses and events are refused and change nothing; a postponed match is not live")
    func refusals() async throws {
        try await Self.with { feed in
            let created = try await feed.raw(
                .POST, "/test/football/fixtures",
                json: FootballControl.NewFixture(home: "Narva", away: "Paide", kickoff: Self.time("2026-11-25T15:00:00Z")))
            let id = try #require(try Self.json(created)["id"] as? Int)
            #expect(
                try await feed.raw(.POST, "/test/football/fixtures/\(id)/status", json: FootballControl.StatusChange(status: "HALFTIME"))
                    .status
                    == 400)
            let odd = FootballControl.NewEvent(type: "Goal", detail: "Header", team: .home, player: "X", elapsed: 3)
            #expect(try await feed.raw(.POST, "/test/football/fixtures/\(id)/events", json: odd).status == 400)
            #expect(
                try await feed.raw(.POST, "/test/football/fixtures/\(id)/status", json: FootballControl.StatusChange(status: "PST")).status
                    == 200
            )
            #expect(try Self.fixtures(try await feed.raw(.GET, "/fixtures?live=all", headers: Self.key)).isEmpty)
            let day = try Self.fixtures(try await feed.raw(.GET, "/fixtures?date=2026-11-25", headers: Self.key))
            #expect(((day.first?["fixture"] as? [String: Any])?["status"] as? [String: Any])?["short"] as? String == "PST")
            let goals = try #require(day.first?["goals"] as? [String: Any])
            #expect(goals["home"] is NSNull && goals["away"] is NSNull)
            #expect(
                try await feed.raw(.POST, "/test/football/fixtures/999/status", json: FootballControl.StatusChange(status: "1H")).status
                    == 404)
        }
    }
}
