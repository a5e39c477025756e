import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import NIOConcurrencyHelpers
import ProviderStandIns
import ServiceKitTesting
import Testing

/// Live football as an app sees it through the gateway: games polls the providers' stand-in, a
/// phone follows one match with HuddleKit, and another app polls the match with If-None-Match.
@Suite("Live football through the gateway", .serialized)
struct LiveFootballTests {
    @Test(
        "a match kicks off, two goals and a card arrive, VAR cancels one, full time: the phone sees each step in order, a poller gets 304s between changes",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func followsAMatch(store: TestStore) async throws {
        try await StackTests.withFootballStack(
            store: store,
            body: { gateway, feed in
                let kickoff = Date().addingTimeInterval(600)
                let fixture = try await feed.schedule(.init(home: "Levadia", away: "Flora", kickoff: kickoff))
                let app = HuddleClient(
                    baseURL: URL(string: gateway.baseURL)!, liveTransport: WebSocketLiveTransport(), tokens: InMemoryTokenStore())
                let listed = try await poll {
                    try await app.send(GamesAPI.matches, query: GamesAPI.matchesDay(CalendarDay(containing: kickoff))).items.first
                } until: {
                    $0?.lineups != nil
                }
                let match = try #require(listed)

                let seen = NIOLockedValueBox<[MatchChange]>([])
                let phone = Task {
                    for try await change in app.liveMatch(match.id) { seen.withLockedValue { $0.append(change) } }
                }
                let answers = NIOLockedValueBox((fresh: 0, notModified: 0))
                let poller = Task {
                    var tag: String?
                    while !Task.isCancelled {
                        let response = try await gateway.call(GamesAPI.match, match.id, headers: tag.map { ["If-None-Match": $0] } ?? [:])
                        if response.status == 304 {
                            answers.withLockedValue { $0.notModified += 1 }
                        } else {
                            answers.withLockedValue { $0.fresh += 1 }
                        }
                        tag = response.header("ETag")
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                func step(_ control: () async throws -> Void, until done: @escaping @Sendable (Match) -> Bool) async throws {
                    try await control()
                    #expect(try await eventually { seen.withLockedValue { $0.last.map { done($0.match) } ?? false } })
                }
                try await step({ try await feed.setStatus(fixture, "1H") }) { $0.status.rawValue == "1H" }
                try await step({ try await feed.record(fixture, .goal(.home, by: "R. Kirss", at: 12)) }) { $0.score.home == 1 }
                try await step({
                    try await feed.record(
                        fixture, .init(type: "Card", detail: "Yellow Card", team: .away, player: "K. Vassiljev", elapsed: 30))
                }) { $0.events.count == 2 }
                try await step({ try await feed.record(fixture, .goal(.away, by: "R. Zenjov", at: 55)) }) { $0.score.away == 1 }
                try await step({
                    try await feed.record(
                        fixture, .init(type: "Var", detail: "Goal cancelled", team: .away, player: "R. Zenjov", elapsed: 57))
                }) { $0.score.away == 0 }
                try await step({ try await feed.setStatus(fixture, "FT") }) { $0.status.rawValue == "FT" }
                try await phone.value
                poller.cancel()

                let changes = seen.withLockedValue { $0 }
                // Every version from the one the phone started at, once and in order.
                let firstSeen = changes.first?.version ?? 0
                #expect(firstSeen >= match.version && changes.map(\.version) == Array(firstSeen...(changes.last?.version ?? 0)))
                let scores = changes.map { "\($0.match.score.home)-\($0.match.score.away)" }
                    .reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                #expect(scores == ["0-0", "1-0", "1-1", "1-0"])
                #expect(changes.last?.match.status == .fullTime && changes.last?.match.events.map(\.type) == [.goal, .card, .goal, .var])
                let counted = answers.withLockedValue { $0 }
                #expect(counted.notModified > 0 && counted.fresh <= changes.count + 1)
            })
    }

    @Test(
        "an app reads the provider's prediction of a match (home, draw, away) with the match", StackTests.embeddedOnly,
        arguments: StackTests.stores)
    func prediction(store: TestStore) async throws {
        try await StackTests.withFootballStack(store: store) { gateway, feed in
            let kickoff = Date().addingTimeInterval(3 * 3600)
            _ = try await feed.schedule(
                .init(home: "Nõmme Kalju", away: "Paide", kickoff: kickoff, prediction: .init(home: 48, draw: 27, away: 25)))
            let app = HuddleClient(baseURL: URL(string: gateway.baseURL)!, tokens: InMemoryTokenStore())
            let predicted = try await poll {
                try await app.send(GamesAPI.matches, query: GamesAPI.matchesDay(CalendarDay(containing: kickoff))).items
                    .first { $0.home.name == "Nõmme Kalju" }
            } until: {
                $0?.prediction != nil
            }
            #expect(predicted?.prediction == Match.Prediction(home: 48, draw: 27, away: 25))
        }
    }
}
