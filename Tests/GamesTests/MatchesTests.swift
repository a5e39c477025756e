import Contracts
import Foundation
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import GamesService

@Suite("Professional matches")
struct MatchesTests {
    @Test(
        "A match kicks off, two goals and a card arrive, VAR cancels one, full time: each is a version a phone sees in order, and other services hear of it",
        arguments: TestStore.all)
    func followsAMatch(store: TestStore) async throws {
        try await RecordingSubscriber.with { subscriber in
            let config = ["games.events.subscribers": "search"]
            try await MatchesHarness.with(store: store, config: config, directory: [.search: subscriber.url]) { h in
                let (fixture, id) = try await h.fixture("Levadia", "Flora")
                // Listed, then detailed (lineups come an hour before kickoff): the match as a phone first sees it.
                let first = try #require(try await h.waitFor(id) { $0.status == .notStarted && $0.lineups != nil })
                #expect(first.home.name == "Levadia" && first.away.name == "Flora" && first.score == Match.Score(home: 0, away: 0))
                let phone = try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: id)
                #expect(try await phone.waitFor { $0.version == first.version })

                try await h.status(fixture, "1H", elapsed: 1)
                try await h.waitFor(id, \.status, .firstHalf)
                try await h.event(fixture, "Goal", "Normal Goal", .home, elapsed: 12)
                try await h.waitFor(id, \.score, Match.Score(home: 1, away: 0))
                try await h.event(fixture, "Card", "Yellow Card", .away, player: "K. Vassiljev", elapsed: 30)
                try await h.waitFor(id, \.events.count, 2)
                try await h.event(fixture, "Goal", "Normal Goal", .away, player: "R. Zenjov", elapsed: 55)
                try await h.waitFor(id, \.score, Match.Score(home: 1, away: 1))
                try await h.event(fixture, "Var", "Goal cancelled", .away, player: "R. Zenjov", elapsed: 57)
                try await h.waitFor(id, \.score, Match.Score(home: 1, away: 0))
                try await h.status(fixture, "FT", elapsed: 90)
                let final = try #require(try await h.waitFor(id, \.status, .fullTime))
                #expect(final.events.map(\.type) == [.goal, .card, .goal, .var])
                #expect(final.lineups?.home.startXI.count == 11 && final.statistics?.isEmpty == false)

                // Every version in order, none twice; the steps as they happened.
                #expect(try await phone.waitFor { $0.version == final.version })
                let seen = phone.messages
                #expect(seen.map(\.version) == Array(first.version...final.version))
                let scores = seen.map { "\($0.match.score.home)-\($0.match.score.away)" }.reduce(into: [String]()) {
                    if $0.last != $1 { $0.append($1) }
                }
                #expect(scores == ["0-0", "1-0", "1-1", "1-0"])
                #expect(seen.contains { $0.match.status == .firstHalf } && seen.last?.match.status == .fullTime)
                await phone.close()

                // Other services hear of kickoff, status and score changes, and of the end once.
                #expect(try await eventuallyHeard(subscriber) { $0.contains(MatchEvent.finished.name) })
                let types = subscriber.events.map(\.type)
                #expect(types.filter { $0 == MatchEvent.finished.name }.count == 1)
                #expect(types.filter { $0 == MatchEvent.updated.name }.count == 6)  // NS, 1H, 1-0, 1-1, 1-0, FT
                let ended = try HuddleJSON.decoder.decode(MatchEvent.MatchChanged.self, from: subscriber.events.last!.payload).match
                #expect(ended.id == id && ended.status == .fullTime && ended.score == Match.Score(home: 1, away: 0))
            }
        }
    }

    @Test(
        "Reads are conditional: ETag, 304 without a body while nothing changes, Cache-Control as the poll interval",
        arguments: TestStore.all)
    func conditionalReads(store: TestStore) async throws {
        try await MatchesHarness.with(store: store) { h in
            let (fixture, id) = try await h.fixture("Nõmme Kalju", "Paide")
            try await h.waitFor(id) { $0.lineups != nil }
            let day = CalendarDay(containing: Date().addingTimeInterval(600))
            let reads: [@Sendable ([String: String]) async throws -> TestClient.Response] = [
                { [client = h.client] in try await client.call(GamesAPI.match, id, headers: $0) },
                { [client = h.client] in try await client.call(GamesAPI.matches, query: GamesAPI.matchesDay(day), headers: $0) },
            ]
            for read in reads {
                let fresh = try await expect(200, read([:]))
                let tag = try #require(fresh.header("ETag"))
                #expect(fresh.header("Cache-Control") == "public, max-age=1")
                let unchanged = try await read(["If-None-Match": tag])
                #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == tag)
                #expect(try await read(["If-None-Match": "W/\(tag), \"other\""]).status == 304)
                #expect(try await read(["If-None-Match": "\"other\""]).status == 200)
            }
            let before = try #require(try await h.client.call(GamesAPI.match, id).header("ETag"))
            try await h.status(fixture, "1H", elapsed: 3)
            try await h.waitFor(id, \.status, .firstHalf)
            let after = try await expect(200, h.client.call(GamesAPI.match, id, headers: ["If-None-Match": before]))
            let changed = try after.decode(Match.self)
            #expect(after.header("ETag") != before && changed.status == .firstHalf)
        }
    }

    @Test("Lists by day, in play and league; postponed and cancelled matches are over, with a finished event", arguments: TestStore.all)
    func listsAndCalledOffMatches(store: TestStore) async throws {
        try await RecordingSubscriber.with { subscriber in
            let config = ["games.events.subscribers": "search"]
            try await MatchesHarness.with(store: store, config: config, directory: [.search: subscriber.url]) { h in
                // Within today: a fixture that kicks off early kicks off at once (the stand-in moves its
                // kickoff, as the provider does), so a kickoff after midnight left it on the day before.
                let kickoff = min(Date().addingTimeInterval(900), CalendarDay(containing: Date()).next.start.addingTimeInterval(-1))
                let playing = try await h.fixture("Tammeka", "Kuressaare", kickoff: kickoff, league: 329)
                let postponed = try await h.fixture("Trans", "Legion", kickoff: kickoff, league: 329)
                let cancelled = try await h.fixture("Tulevik", "Harju", kickoff: kickoff, league: 330)
                try await h.status(playing.fixture, "1H", elapsed: 5)
                try await h.status(postponed.fixture, "PST")
                try await h.status(cancelled.fixture, "CANC")
                try await h.waitFor(playing.match, \.status, .firstHalf)
                try await h.waitFor(postponed.match, \.status, .postponed)
                try await h.waitFor(cancelled.match, \.status, .cancelled)

                let day = CalendarDay(containing: kickoff)
                func ids(_ query: QueryItems) async throws -> [MatchID] {
                    try await expect(200, h.client.call(GamesAPI.matches, query: query)).decode(Page<Match>.self).items.map(\.id)
                }
                #expect(Set(try await ids(GamesAPI.matchesDay(day))) == [playing.match, postponed.match, cancelled.match])
                #expect(try await ids(GamesAPI.matchesLive(true)) == [playing.match])
                #expect(Set(try await ids(GamesAPI.matchesDay(day) + GamesAPI.matchesLeague(329))) == [playing.match, postponed.match])
                #expect(try await ids(GamesAPI.matchesDay(CalendarDay("2001-01-01"))).isEmpty)

                #expect(try await eventuallyHeard(subscriber) { $0.filter { $0 == MatchEvent.finished.name }.count == 2 })
                let ended = try subscriber.events.filter { $0.type == MatchEvent.finished.name }
                    .map { try HuddleJSON.decoder.decode(MatchEvent.MatchChanged.self, from: $0.payload).match.status }
                #expect(Set(ended) == [.postponed, .cancelled])
            }
        }
    }

    @Test(
        "A provider that is down leaves the last state served; when it is back, what happened meanwhile arrives with no gap",
        arguments: TestStore.all)
    func providerDownAndBack(store: TestStore) async throws {
        try await MatchesHarness.with(store: store) { h in
            let (fixture, id) = try await h.fixture("Flora", "Levadia")
            try await h.status(fixture, "1H", elapsed: 10)
            let before = try #require(try await h.waitFor(id, \.status, .firstHalf))
            let phone = try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: id)
            try await h.outage(true)
            try await h.event(fixture, "Goal", "Penalty", .home, elapsed: 20)
            // The poller meets the outage several times (its backoff starts at one tick); games keeps answering.
            for _ in 0..<5 {
                let served = try await expect(200, h.client.call(GamesAPI.match, id)).decode(Match.self)
                #expect(served.score == Match.Score(home: 0, away: 0) && served.updatedAt == before.updatedAt)
                try await Task.sleep(for: .milliseconds(100))
            }
            try await h.outage(false)
            let after = try #require(try await h.waitFor(id, \.score, Match.Score(home: 1, away: 0)))
            // Answers carry whole seconds, and the outage can begin and end within one.
            #expect(after.version == before.version + 1 && after.updatedAt >= before.updatedAt)
            #expect(try await phone.waitFor { $0.version == after.version })
            #expect(phone.messages.map(\.version) == Array(before.version...after.version))
            await phone.close()
        }
    }

    @Test(
        "A match in play the provider stops reporting is marked silent since its last report, with an event, and a report clears the mark",
        arguments: TestStore.all)
    func silentMatch(store: TestStore) async throws {
        try await RecordingSubscriber.with { subscriber in
            // Silent after 1 s without a report in place of ten minutes.
            let config = ["games.matches.silent.after.ms": "1000", "games.events.subscribers": "search"]
            try await MatchesHarness.with(store: store, config: config, directory: [.search: subscriber.url]) { h in
                let (fixture, id) = try await h.fixture("Paide", "Tallinna Kalev")
                try await h.status(fixture, "2H", elapsed: 84)
                let before = try #require(try await h.waitFor(id, \.status, .secondHalf))
                #expect(before.silentSince == nil)
                try await h.outage(true)
                let silent = try #require(try await h.waitFor(id) { $0.silentSince != nil })
                #expect(silent.status == .secondHalf && silent.minute == 84 && silent.version == before.version + 1)
                let lastReport = try #require(silent.silentSince)
                #expect(lastReport >= before.updatedAt && silent.updatedAt.timeIntervalSince(lastReport) >= 1)
                #expect(
                    try await eventually {
                        try subscriber.events.contains {
                            try $0.type == MatchEvent.updated.name
                                && HuddleJSON.decoder.decode(MatchEvent.MatchChanged.self, from: $0.payload).match.silentSince != nil
                        }
                    })
                try await h.outage(false)
                let spoken = try #require(try await h.waitFor(id) { $0.silentSince == nil })
                #expect(spoken.version == silent.version + 1 && spoken.status == .secondHalf)
            }
        }
    }

    @Test(
        "A match carries the provider's prediction as a version of its own, the chances a test set or the odds' implied ones; a fixture without one is asked once, not every tick",
        arguments: TestStore.all)
    func predictions(store: TestStore) async throws {
        try await MatchesHarness.with(store: store) { h in
            // Given with the fixture, so the poller never finds it without one.
            let chances = FootballControl.Prediction(home: 45, draw: 30, away: 25)
            let setID = try await h.feed.schedule(
                .init(home: "Levadia", away: "Flora", kickoff: Date().addingTimeInterval(600), prediction: chances))
            let set = (fixture: setID, match: MatchRules.id(ofFixture: setID))
            let priced = try await h.feed.schedule(
                .init(
                    home: "Kalju", away: "Paide", kickoff: Date().addingTimeInterval(3 * 3600),
                    odds: .init(home: "2.00", draw: "4.00", away: "4.00")))
            let none = try await h.fixture("Tammeka", "Trans", kickoff: Date().addingTimeInterval(4 * 3600))
            let predicted = try #require(try await h.waitFor(set.match) { $0.prediction != nil })
            #expect(predicted.prediction == chances.asMatchPrediction)
            let implied = try #require(try await h.waitFor(MatchRules.id(ofFixture: priced)) { $0.prediction != nil })
            #expect(implied.prediction == Match.Prediction(home: 50, draw: 25, away: 25))
            // A later report of the fixture keeps the prediction.
            try await h.status(set.fixture, "1H", elapsed: 1)
            #expect(try await h.waitFor(set.match, \.status, .firstHalf)?.prediction == predicted.prediction)
            #expect(try await h.match(none.match)?.prediction == nil)
            // A prediction changed later is taken at the next ask (twelve hours on), not before.
            try await h.feed.setPrediction(set.fixture, .init(home: 40, draw: 30, away: 30))
            func asked() async throws -> Int { try await h.feed.requests().filter { $0.resource == "predictions" }.count }
            #expect(try await eventually { try await asked() == 3 })
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await asked() == 3)
            #expect(try await h.match(set.match)?.prediction == chances.asMatchPrediction)
        }
    }

    @Test("A phone that reconnects with afterVersion gets each version after it, then live ones", arguments: TestStore.all)
    func resume(store: TestStore) async throws {
        try await MatchesHarness.with(store: store) { h in
            let (fixture, id) = try await h.fixture("Paide", "Tallinna Kalev")
            try await h.status(fixture, "1H", elapsed: 1)
            for minute in [10, 20, 30] {
                try await h.event(fixture, "Card", "Yellow Card", .home, elapsed: minute)
                try await h.waitFor(id) { $0.events.count == minute / 10 }
            }
            let now = try #require(try await h.match(id))
            let phone = try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: id, afterVersion: now.version - 2)
            #expect(try await phone.waitFor { $0.version == now.version })
            try await h.event(fixture, "Goal", "Normal Goal", .away, elapsed: 40)
            #expect(try await phone.waitFor { $0.version == now.version + 1 && $0.match.score.away == 1 })
            #expect(phone.messages.map(\.version) == [now.version - 1, now.version, now.version + 1])
            // Already current: nothing until the next change.
            let current = try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: id, afterVersion: now.version + 1)
            try await h.status(fixture, "HT", elapsed: 45)
            #expect(try await current.waitFor { $0.match.status == .halftime })
            #expect(current.messages.map(\.version) == [now.version + 2])
            for device in [phone, current] { await device.close() }
        }
    }

    @Test("Bad queries are 422 naming the parameter; unknown matches 404; the live path over HTTP 426", arguments: [TestStore.sqlite])
    func refusals(store: TestStore) async throws {
        try await MatchesHarness.with(store: store) { h in
            for (query, field) in [("date=2026-02-30", "date"), ("date=today", "date"), ("live=yes", "live"), ("league=0", "league")] {
                let response = try await h.client.call(GamesAPI.matches, rawQuery: "\(query)")
                #expect(response.status == 422)
                #expect(try response.decode(Problem.self).errors?.first?.field == field)
            }
            #expect(try await h.client.call(GamesAPI.match, MatchID()).status == 404)
            #expect(try await h.client.call(GamesAPI.match, "not-an-id").status == 404)
            let (_, id) = try await h.fixture("A", "B")
            try await h.waitFor(id) { _ in true }
            let overHTTP = try await h.client.call(GamesAPI.liveMatch, id)
            #expect(overHTTP.status == 426)
            #expect(try overHTTP.decode(Problem.self).code == ProblemCode.webSocketRequired.code)
            for bad in ["-1", "null", "2147483648"] {
                let refused = try await h.client.call(GamesAPI.liveMatch, id, rawQuery: "afterVersion=\(bad)")
                let problem = try refused.decode(Problem.self)
                #expect(refused.status == 422 && problem.errors?.first?.field == "afterVersion")
            }
            await #expect(throws: MatchSocket.Refused.self) {
                try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: MatchID())
            }
        }
    }

    @Test(
        "With PostgreSQL, two instances share the feed: one polls, and phones on either see every version",
        .enabled(if: TestStore.postgresURL != nil))
    func acrossInstances() async throws {
        let shared = try await TestStore.postgres.freshDatabaseURL()
        try await MatchesHarness.with(store: .postgres, config: ["games.db.url": shared]) { h in
            let elsewhere = [ServiceModule.auth: h.games.stack.url(.auth), .catalog: h.games.stack.url(.catalog)]
            let gamesOnly = GamesHarness.builders.filter { $0.module == .games }
            var config = MatchesHarness.settings(h.feedURL)
            config["games.db.url"] = shared
            try await TestStack.with(gamesOnly, store: .postgres, config: config, directory: elsewhere) { second in
                let (fixture, id) = try await h.fixture("Levadia", "Narva Trans")
                let first = try #require(try await h.waitFor(id) { _ in true })
                // Resuming from before the first version keeps the test independent of versions the
                // poller may add between that read and the connect (lineups from the first details call).
                let resumeFrom = first.version - 1
                let phones = [
                    try await MatchSocket.connect(baseURL: h.games.stack.url(.games), match: id, afterVersion: resumeFrom),
                    try await MatchSocket.connect(baseURL: second.url(.games), match: id, afterVersion: resumeFrom),
                ]
                try await h.status(fixture, "1H", elapsed: 1)
                try await h.event(fixture, "Goal", "Own Goal", .home, elapsed: 9)
                let scored = try #require(try await h.waitFor(id) { $0.score.home == 1 })
                for phone in phones {
                    #expect(try await phone.waitFor { $0.version == scored.version })
                    #expect(phone.messages.map(\.version) == Array(first.version...scored.version))
                    await phone.close()
                }
                let viaSecond = try await expect(200, TestClient(baseURL: second.url(.games)).call(GamesAPI.match, id)).decode(Match.self)
                #expect(viaSecond.version == scored.version)
            }
        }
    }
}

/// Waits until the recorded event types satisfy `condition`.
func eventuallyHeard(_ subscriber: RecordingSubscriber, _ condition: @escaping ([String]) -> Bool) async throws -> Bool {
    try await eventually { condition(subscriber.events.map(\.type)) }
}

extension FootballControl.Prediction {
    var asMatchPrediction: Match.Prediction { Match.Prediction(home: home, draw: draw, away: away) }
}
