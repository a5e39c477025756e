import Contracts
import Foundation
import ProviderStandIns
import ServiceKitTesting
import Testing

@testable import GamesService

/// Games polling the providers' stand-in every 100 ms, and the stand-in's football controls.
struct MatchesHarness {
    let games: GamesHarness
    /// The stand-in's base URL.
    let feedURL: String
    var feed: FootballControlClient { FootballControlClient(baseURL: feedURL) }
    var client: TestClient { games.games }

    static func with(
        store: TestStore = .sqlite, config: [String: String] = [:], directory: [ServiceModule: String] = [:],
        body: (MatchesHarness) async throws -> Void
    ) async throws {
        try await APIFootballTests.withStandIn(perMinute: 100_000) { feedURL in
            var settings = settings(feedURL)
            settings.merge(config) { _, new in new }
            try await GamesHarness.with(store: store, config: settings, directory: directory) { games in
                try await body(MatchesHarness(games: games, feedURL: feedURL))
            }
        }
    }

    static func settings(_ feedURL: String) -> [String: String] {
        [
            "games.matches.provider.url": feedURL, "games.matches.provider.key": "huddle-dev-football-key",
            "games.matches.poll.live.ms": "100", "games.matches.poll.day.ms": "200", "games.matches.provider.timeout.ms": "2000",
        ]
    }

    /// A fixture on the stand-in; returns its provider id and the id games gives it.
    func fixture(_ home: String, _ away: String, kickoff: Date = Date().addingTimeInterval(600), league: Int = 1000) async throws
        -> (fixture: Int, match: MatchID)
    {
        let id = try await feed.schedule(
            .init(home: home, away: away, kickoff: kickoff, league: .init(id: league, name: "League \(league)")))
        return (id, MatchRules.id(ofFixture: id))
    }

    func status(_ fixture: Int, _ status: String, elapsed: Int? = nil) async throws {
        try await feed.setStatus(fixture, status, elapsed: elapsed)
    }

    func event(
        _ fixture: Int, _ type: String, _ detail: String, _ team: FootballControl.Side, player: String = "R. Kirss", elapsed: Int
    ) async throws {
        try await feed.record(fixture, .init(type: type, detail: detail, team: team, player: player, elapsed: elapsed))
    }

    func outage(_ down: Bool) async throws {
        try await feed.setOutage(down)
    }

    func match(_ id: MatchID) async throws -> Match? {
        let response = try await client.call(GamesAPI.match, id)
        return response.status == 200 ? try response.decode(Match.self) : nil
    }

    /// Waits until games serves the match in a state `condition` accepts, and returns it.
    @discardableResult
    func waitFor(_ id: MatchID, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (Match) -> Bool) async throws -> Match? {
        let last = try await poll {
            try await match(id)
        } until: {
            $0.map(condition) ?? false
        }
        if let last, condition(last) { return last }
        Issue.record("the match did not reach the state in time; it is \(String(describing: last))", sourceLocation: sourceLocation)
        return nil
    }

    /// Waits until the match's `field` is `value`.
    @discardableResult
    func waitFor<Value: Equatable>(
        _ id: MatchID, _ field: KeyPath<Match, Value>, _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
    )
        async throws -> Match?
    {
        try await waitFor(id, sourceLocation: sourceLocation) { $0[keyPath: field] == value }
    }
}
