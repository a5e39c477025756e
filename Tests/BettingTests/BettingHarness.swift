import AuthService
import BettingService
import Configuration
import Contracts
import Foundation
import HuddleEffects
import Logging
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Auth and betting on port 0, betting polling the providers' stand-in for odds every 100 ms. Matches
/// reach betting as games would send them: `games.match.*` events on `/internal/events`.
struct BettingHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.betting,
    ]

    let stack: TestStack
    let feedURL: String
    var betting: TestClient { stack.client(.betting) }
    var feed: FootballControlClient { FootballControlClient(baseURL: feedURL) }

    static func with(
        store: TestStore = .sqlite, config: [String: String] = [:], effects: Effects = .system,
        body: (BettingHarness) async throws -> Void
    ) async throws {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "100000"]))
        try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stand-in"), onListening: onListening)
        }) { feedURL in
            var settings = [
                "betting.odds.provider.url": feedURL, "betting.odds.provider.key": "huddle-dev-football-key",
                "betting.odds.poll.ms": "100", "betting.postponed.sweep.ms": "100", "betting.wallet.grant": "10000",
                "betting.stake.min": "100", "betting.stake.max": "5000", "betting.selections.max": "3",
            ]
            settings.merge(config) { _, new in new }
            try await TestStack.with(builders, store: store, config: settings, effects: effects) { stack in
                let harness = BettingHarness(stack: stack, feedURL: feedURL)
                try await body(harness)
                try await harness.expectLedgerHolds()
            }
        }
    }

    func player(_ name: String = "Bettor") async throws -> Session { try await stack.client(.auth).register(name: name) }

    /// A betting fixture with the provider's id for it.
    struct Priced {
        let fixture: Fixture
        let provider: Int
        var id: MatchID { fixture.id }
        /// The pick at the fixture's odds as listed.
        func pick(_ pick: Pick) -> TicketPick { TicketPick(fixtureId: id, pick: pick, odds: fixture.odds![pick]) }
    }

    /// A fixture priced on the stand-in and announced to betting as games would; waits until betting
    /// shows its odds.
    func fixture(
        _ home: String, _ away: String, kickoff: Date = Date().addingTimeInterval(3600),
        odds: (String, String, String) = ("2.10", "3.40", "3.25")
    ) async throws -> Priced {
        let provider = try await feed.schedule(
            .init(home: home, away: away, kickoff: kickoff, odds: .init(home: odds.0, draw: odds.1, away: odds.2)))
        let match = Match(
            id: MatchID(), league: .init(id: 39, name: "Premier League", country: "England"), kickoff: kickoff, status: .notStarted,
            minute: nil,
            home: .init(id: 1, name: home, logo: nil), away: .init(id: 2, name: away, logo: nil), score: .init(home: 0, away: 0),
            halftime: nil, events: [], version: 1, updatedAt: Date())
        try await announce(match, provider: provider)
        return Priced(fixture: try await waitFor(match.id) { $0.odds != nil }, provider: provider)
    }

    /// Sends betting `games.match.updated` (and `finished` when the status is over) for each of
    /// `matches`, in one batch (applied in one transaction, as games' dispatcher may send them).
    func announce(_ matches: [Match], provider: Int, ids: [EventID]? = nil) async throws {
        let events = try matches.enumerated().map { index, match in
            let over = MatchStatus.finished.union(MatchStatus.called).contains(match.status)
            return EventEnvelope(
                id: ids?[index], type: (over ? MatchEvent.finished : MatchEvent.updated).name,
                aggregateID: match.id.description,
                occurredAt: Date(),
                payload: try HuddleJSON.encoder.encode(MatchEvent.MatchChanged(match: match, providerFixtureId: provider)))
        }
        try await betting.deliver(events, to: .betting)
    }

    func announce(_ match: Match, provider: Int) async throws { try await announce([match], provider: provider) }

    /// The fixture's match at a later version with `status` and, once over, its result after regular time.
    func state(_ priced: Priced, _ status: MatchStatus, regularTime: Match.Score? = nil, kickoff: Date? = nil, version: Int = 2) -> Match {
        let fixture = priced.fixture
        return Match(
            id: fixture.id, league: fixture.league, kickoff: kickoff ?? fixture.kickoff, status: status, minute: 90, home: fixture.home,
            away: fixture.away, score: regularTime ?? .init(home: 0, away: 0), halftime: nil,
            fulltime: MatchStatus.finished.contains(status) ? regularTime : nil, events: [], version: version, updatedAt: Date())
    }

    /// Sends betting the fixture's match moved on to `status`.
    func finish(_ priced: Priced, status: MatchStatus, regularTime: Match.Score?, kickoff: Date? = nil, version: Int = 2) async throws {
        try await announce(state(priced, status, regularTime: regularTime, kickoff: kickoff, version: version), provider: priced.provider)
    }

    /// New prices on the stand-in; waits until betting has them.
    func setOdds(_ priced: Priced, _ home: String, _ draw: String, _ away: String) async throws -> Fixture {
        try await feed.setOdds(priced.provider, .init(home: home, draw: draw, away: away))
        return try await waitFor(priced.id) { $0.odds?.home == Odds(home) && $0.odds?.away == Odds(away) }
    }

    @discardableResult
    func waitFor(_ id: MatchID, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (Fixture) -> Bool) async throws
        -> Fixture
    {
        let response = try await poll {
            try await betting.call(BettingAPI.fixture, id)
        } until: { response in
            response.status == 200 && (try? response.decode(Fixture.self)).map(condition) == true
        }
        guard response.status == 200, let fixture = try? response.decode(Fixture.self), condition(fixture) else {
            throw UnexpectedResponse(response: response, expected: 200)
        }
        return fixture
    }

    func wallet(_ session: Session) async throws -> Wallet {
        try await expect(200, betting.call(BettingAPI.wallet, token: session.accessToken)).decode(Wallet.self)
    }

    func place(_ request: PlaceTicket, as session: Session, key: String? = UUID().uuidString) async throws -> TestClient.Response {
        try await betting.call(
            BettingAPI.placeTicket, body: request, token: session.accessToken,
            headers: key.map { [Routes.Header.idempotencyKey: $0] } ?? [:]
        )
    }

    func ticket(_ id: TicketID, as session: Session) async throws -> Ticket {
        try await expect(200, betting.call(BettingAPI.ticket, id, token: session.accessToken)).decode(Ticket.self)
    }

    /// Waits until the ticket is settled and returns it (still open if it never was).
    func settled(_ id: TicketID, as session: Session) async throws -> Ticket {
        try await poll {
            try await ticket(id, as: session)
        } until: {
            $0.status != .open
        }
    }

    /// The ledger's invariants, as betting checks them from every transfer.
    func ledger() async throws -> LedgerCheck {
        try await betting.value(BettingAPI.Internal.ledgerCheck)
    }

    func expectLedgerHolds(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let check = try await ledger()
        #expect(check.holds, "ledger: \(check)", sourceLocation: sourceLocation)
    }
}

extension TestClient.Response {
    var problemCode: String? { (try? decode(Problem.self))?.code }
}
