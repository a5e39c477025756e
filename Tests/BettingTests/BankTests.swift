import AuthService
import Configuration
import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The bank test: users place tickets concurrently and retry the same keys, matches finish while they
/// do, and the betting process is killed with SIGKILL several times and started again on the same
/// PostgreSQL. Afterwards every invariant a bank would check holds. The size is CI's by default;
/// `HUDDLE_BANK_USERS`, `HUDDLE_BANK_TICKETS` and `HUDDLE_BANK_KILLS` make it larger.
///
/// It runs when `HUDDLE_KILL_TESTS=1` (`.ci/run` runs it on its own after the suite): beside the
/// whole suite on two cores, its second process and load pushed other tests past their timeouts.
@Suite("Betting survives SIGKILL", .serialized)
struct BankTests {
    static let enabled =
        TestStore.postgresURL != nil && ServiceProcess.isBuilt("betting") && ProcessInfo.processInfo.environment["HUDDLE_KILL_TESTS"] == "1"

    struct Size {
        var users = 12
        var ticketsPerUser = 6
        var kills = 3
        var fixtures = 6

        static var configured: Size {
            let environment = ProcessInfo.processInfo.environment
            var size = Size()
            size.users = environment["HUDDLE_BANK_USERS"].flatMap(Int.init) ?? size.users
            size.ticketsPerUser = environment["HUDDLE_BANK_TICKETS"].flatMap(Int.init) ?? size.ticketsPerUser
            size.kills = environment["HUDDLE_BANK_KILLS"].flatMap(Int.init) ?? size.kills
            return size
        }
    }

    /// What a user was told: per idempotency key, the ticket (201) or the refusal's code.
    struct Outcome: Sendable {
        let user: Int
        let key: String
        let stake: Int
        let ticket: TicketID?
        let refusal: String?
    }

    @Test(
        "tickets under concurrent retries and SIGKILLs: accounts sum to zero, no wallet below zero, one debit per key, one payout per won ticket, every acknowledged ticket kept",
        .enabled(if: enabled))
    func survivesKills() async throws {
        let size = Size.configured
        let standIn = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "1000000"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: Logger(label: "stand-in"), onListening: $0) }) {
            feedURL in
            let builders = [ModuleBuilder.auth]
            try await TestStack.with(builders, store: .sqlite) { auth in
                let betting = try ServiceProcess(
                    "betting",
                    settings: [
                        "betting.db.url": try await TestStore.postgres.freshDatabaseURL(), "auth.url": auth.url(.auth),
                        "betting.odds.provider.url": feedURL,
                        "betting.odds.provider.key": "huddle-dev-football-key", "betting.odds.poll.ms": "100",
                        "betting.wallet.grant": "10000", "betting.stake.min": "100", "betting.stake.max": "2000", "betting.db.pool": "8",
                        "log.level": "critical",
                    ])
                try await betting.start()
                do {
                    try await run(size, betting: betting, feed: FootballControlClient(baseURL: feedURL), auth: auth.client(.auth))
                } catch {
                    await betting.stop()
                    throw error
                }
                await betting.stop()
            }
        }
    }

    private func run(_ size: Size, betting process: ServiceProcess, feed: FootballControlClient, auth: TestClient) async throws {
        let betting = TestClient(baseURL: process.url, internalCallers: TestStack.internalCallers)
        let fixtures = try await (0..<size.fixtures).asyncMap { index in try await fixture(index, feed: feed, betting: betting) }
        let users = try await (0..<size.users).asyncMap { index in try await auth.register(name: "Punter \(index)") }

        let outcomes = NIOLockedValueBox<[Outcome]>([])
        let unanswered = NIOLockedValueBox(0)
        let finished = NIOLockedValueBox(Set<Int>())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, user) in users.enumerated() {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(index + 1))
                    for number in 0..<size.ticketsPerUser {
                        let legs = Array(fixtures.indices.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
                        let request = PlaceTicket(
                            stake: Int.random(in: 1...20, using: &random) * 100,
                            selections: legs.map { fixtures[$0].pick(Pick.allCases.randomElement(using: &random)!) })
                        let key = "bank-\(index)-\(number)"
                        var outcome = try await place(
                            request, key: key, user: index, session: user, betting: betting, unanswered: unanswered)
                        // The client's retry after an answer it did lose: the same key, the same ticket.
                        if outcome.ticket != nil, Bool.random(using: &random) {
                            let again = try await place(
                                request, key: key, user: index, session: user, betting: betting, unanswered: unanswered)
                            #expect(again.ticket == outcome.ticket, "key \(key) answered another ticket on a retry")
                            outcome = again
                        }
                        outcomes.withLockedValue { $0.append(outcome) }
                    }
                }
            }
            // Matches finish while tickets are placed; a finish is delivered until betting takes it, as
            // games' outbox would.
            group.addTask {
                for index in fixtures.indices.prefix(size.fixtures / 2) {
                    try await Task.sleep(for: .milliseconds(300))
                    try await deliver(finish(fixtures[index], index: index), to: betting)
                    finished.withLockedValue { _ = $0.insert(index) }
                }
            }
            group.addTask {
                for _ in 0..<size.kills {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 250...600)))
                    await process.kill()
                    try await process.start()
                }
            }
            try await group.waitForAll()
        }
        for index in fixtures.indices where !finished.withLockedValue({ $0.contains(index) }) {
            try await deliver(finish(fixtures[index], index: index), to: betting)
        }

        let told = outcomes.withLockedValue { $0 }
        #expect(told.count == size.users * size.ticketsPerUser)
        #expect(told.contains { $0.ticket != nil }, "no ticket was placed at all")
        for (index, user) in users.enumerated() {
            try await audit(user, told: told.filter { $0.user == index }, betting: betting)
        }
        let check = try await betting.value(BettingAPI.Internal.ledgerCheck)
        #expect(check.holds, "ledger: \(check)")
        print(
            "bank: \(size.users) users × \(size.ticketsPerUser) keys, \(size.kills) kills (\(unanswered.withLockedValue { $0 }) attempts "
                + "unanswered and retried): \(told.filter { $0.ticket != nil }.count) tickets, "
                + "\(Dictionary(grouping: told.compactMap(\.refusal), by: { $0 }).mapValues(\.count)) refused; ledger \(check)")
    }

    /// Sends the ticket until a definitive answer: a ticket, or a refusal (4xx). No answer, or a 5xx
    /// while betting restarts, is retried with the same key and body.
    private func place(
        _ request: PlaceTicket, key: String, user: Int, session: Session, betting: TestClient, unanswered: NIOLockedValueBox<Int>
    ) async throws -> Outcome {
        for _ in 0..<400 {
            let response = try? await betting.call(
                BettingAPI.placeTicket, body: request, token: session.accessToken, headers: [Routes.Header.idempotencyKey: key])
            guard let response, response.status < 500 else {
                unanswered.withLockedValue { $0 += 1 }
                try await Task.sleep(for: .milliseconds(25))
                continue
            }
            if response.status == 201 {
                return Outcome(user: user, key: key, stake: request.stake, ticket: try response.decode(Ticket.self).id, refusal: nil)
            }
            return Outcome(user: user, key: key, stake: request.stake, ticket: nil, refusal: response.problemCode ?? "\(response.status)")
        }
        throw ServiceProcessFailure(description: "no definitive answer for key \(key)")
    }

    /// One user's tickets, wallet and ledger entries against what they were told.
    private func audit(_ session: Session, told: [Outcome], betting: TestClient) async throws {
        let token = session.accessToken
        func all<Item: Codable & Sendable>(_ endpoint: Endpoint<SignedIn, NoBody, Page<Item>>) async throws -> [Item] {
            var items: [Item] = [], cursor: String?
            repeat {
                let page = try await betting.value(endpoint, query: Query.limit(100) + Query.cursor(cursor), token: token)
                items += page.items
                cursor = page.nextCursor
            } while cursor != nil
            return items
        }
        let tickets = try await all(BettingAPI.tickets)
        let entries = try await all(BettingAPI.transactions)

        // Every acknowledged ticket is there, and nothing else is.
        #expect(Set(tickets.map(\.id)) == Set(told.compactMap(\.ticket)))
        #expect(tickets.allSatisfy { $0.status != .open }, "every match finished, so every ticket settled")
        // One debit per key, of its stake; one payout per won or void ticket, of its payout.
        let stakes = Dictionary(grouping: entries.filter { $0.kind == .stake }, by: { $0.ticketId })
        let payouts = Dictionary(grouping: entries.filter { $0.kind == .payout || $0.kind == .refund }, by: { $0.ticketId })
        for ticket in tickets {
            #expect(stakes[ticket.id]?.map(\.amount) == [-ticket.stake], "ticket \(ticket.id) debited \(stakes[ticket.id] ?? [])")
            let paid = payouts[ticket.id]?.map(\.amount) ?? []
            #expect(paid == ((ticket.payout ?? 0) > 0 ? [ticket.payout!] : []), "ticket \(ticket.id) paid \(paid)")
        }
        #expect(stakes.count == tickets.count && payouts.keys.allSatisfy { id in tickets.contains { $0.id == id } })
        let wallet = try await expect(200, betting.call(BettingAPI.wallet, token: token)).decode(Wallet.self)
        #expect(wallet.balance >= 0 && wallet.balance == entries.reduce(0) { $0 + $1.amount })
        #expect(wallet.balance == 10_000 - tickets.map(\.stake).reduce(0, +) + tickets.compactMap(\.payout).reduce(0, +))
    }

    private struct Listed: Sendable {
        let fixture: Fixture
        let provider: Int
        func pick(_ pick: Pick) -> TicketPick { TicketPick(fixtureId: fixture.id, pick: pick, odds: fixture.odds![pick]) }
    }

    private func fixture(_ index: Int, feed: FootballControlClient, betting: TestClient) async throws -> Listed {
        let kickoff = Date().addingTimeInterval(3600)
        let provider = try await feed.schedule(.init(home: "Home \(index)", away: "Away \(index)", kickoff: kickoff))
        try await feed.setOdds(provider, .init(home: "2.10", draw: "3.30", away: "3.60"))
        let match = Match(
            id: MatchID(), league: .init(id: 39, name: "Premier League", country: "England"), kickoff: kickoff, status: .notStarted,
            minute: nil,
            home: .init(id: 2 * index, name: "Home \(index)", logo: nil), away: .init(id: 2 * index + 1, name: "Away \(index)", logo: nil),
            score: .init(home: 0, away: 0), halftime: nil, events: [], version: 1, updatedAt: Date())
        try await deliver(MatchEvent.updated, match, provider: provider, to: betting)
        for _ in 0..<300 {
            let response = try await betting.call(BettingAPI.fixture, match.id)
            if response.status == 200, let fixture = try? response.decode(Fixture.self), fixture.odds != nil {
                return Listed(fixture: fixture, provider: provider)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServiceProcessFailure(description: "fixture \(index) got no odds")
    }

    /// The fixture's final: fixture 0 cancelled (its legs void), the others a score from the index.
    private func finish(_ listed: Listed, index: Int) -> (type: EventType<MatchEvent.MatchChanged>, match: Match, provider: Int) {
        let fixture = listed.fixture
        let status: MatchStatus = index == 0 ? .cancelled : .fullTime
        let score = Match.Score(home: index % 3, away: index % 2)
        return (
            MatchEvent.finished,
            Match(
                id: fixture.id, league: fixture.league, kickoff: fixture.kickoff, status: status, minute: 90, home: fixture.home,
                away: fixture.away, score: score, halftime: nil, fulltime: status == .fullTime ? score : nil, events: [], version: 2,
                updatedAt: Date()),
            listed.provider
        )
    }

    private func deliver(_ final: (type: EventType<MatchEvent.MatchChanged>, match: Match, provider: Int), to betting: TestClient)
        async throws
    {
        try await deliver(final.type, final.match, provider: final.provider, to: betting)
    }

    /// Delivers the event until betting answers 204, under one event id (a redelivery is applied once).
    private func deliver(
        _ type: EventType<MatchEvent.MatchChanged>, _ match: Match, provider: Int, to betting: TestClient
    ) async throws {
        let event = try type.event(
            MatchEvent.MatchChanged(match: match, providerFixtureId: provider), aggregateID: match.id.description, occurredAt: Date())
        for _ in 0..<400 {
            let response = try? await betting.acting(as: .games).call(EventsAPI.deliver(to: .betting), body: EventBatch(events: [event]))
            if response?.status == 204 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw ServiceProcessFailure(description: "betting never took the \(type) of \(match.id)")
    }
}
