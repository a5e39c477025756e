import Contracts
import Crypto
import Foundation
import Metrics
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Placing tickets and reading them back.
struct Tickets: Sendable {
    let database: Database
    let fixtures: any FixtureStore
    let recentFixtures: RecentFixtures
    let store: any TicketStore
    /// The slip a placed ticket takes its picks from (`SlipStore.placed`).
    let slips: any SlipStore
    let ledger: Ledger
    let wallets: Wallets
    let settings: BettingSettings
    let now: @Sendable () -> Date
    var outbox: Outbox { Outbox(now: now) }
    /// `betting_tickets_placed_total` and `betting_stakes_total` (minor units of the wallets'
    /// currency), made once: a lookup in the metrics factory on every ticket costs more.
    private let placedCount = Counter(label: "betting_tickets_placed_total")
    private let stakesTotal = Counter(label: "betting_stakes_total")

    /// Places `request` for `user` under idempotency `key`: the ticket, its legs, the stake's transfer
    /// and the key commit in one transaction, which also takes the ticket's picks off the slip. The same key and body answers the ticket placed first
    /// (and moves nothing); the same key with another body is a 422. A first ticket opens the wallet.
    func place(_ request: PlaceTicket, by user: UserID, key idempotencyKey: IdempotencyKey) async throws -> Ticket {
        let key = idempotencyKey.description
        try check(request)
        if let placed = try await placeInOneStatement(request, by: user, key: key) { return counted(placed) }
        let (ticket, new): (Ticket, Bool)
        do {
            (ticket, new) = try await placeOnce(request, by: user, key: key)
        } catch LedgerRefusal.noSuchAccount(LedgerAccount.wallet(user).id) {
            try await wallets.open(user)
            (ticket, new) = try await placeOnce(request, by: user, key: key)
        }
        return new ? counted(ticket) : ticket
    }

    /// Counts a ticket this call placed; a repeat answered from its key is not counted again.
    private func counted(_ ticket: Ticket) -> Ticket {
        placedCount.increment()
        stakesTotal.increment(by: ticket.stake)
        return ticket
    }

    /// On PostgreSQL, a ticket that nothing stands in the way of takes one statement instead of
    /// `placeOnce`'s seven (`PlaceTicketStatement`): it is priced from the fixtures as this instance
    /// last read them, and the statement checks those prices and markets again while holding the
    /// fixtures. Each statement is a round trip, and a round trip costs the service more than the
    /// database's work (`huddle-bench tickets` on PostgreSQL, 4 clients: about 730 tickets/s in seven
    /// statements, 1,100 in two, 1,400 in one). Nil when something stood in the way — a price moved,
    /// a market closed, short funds, a wallet never opened, the key used before — and `placeOnce`
    /// then answers, with the refusal or the earlier ticket.
    private func placeInOneStatement(_ request: PlaceTicket, by user: UserID, key: String) async throws -> Ticket? {
        guard PlaceTicketStatement.runs(on: database) else { return nil }
        let ids = request.selections.map(\.fixtureId)
        let ticket: Ticket
        do {
            ticket = try priced(request, from: try await recentFixtures.fixtures(ids))
        } catch is BettingError {
            recentFixtures.forget(ids)
            return nil
        } catch is CommonError {
            return nil
        }
        let statement = PlaceTicketStatement(
            ticket: ticket, stake: stake(of: ticket, from: user), owner: user, key: key, fingerprint: Self.fingerprint(request),
            openStatuses: MatchStatus.beforeKickoff.map(\.rawValue).sorted(),
            event: Outbox.stamped(try placedEvent(ticket, owner: user, request)))
        do {
            guard try await !database.prepared(statement).isEmpty else {
                recentFixtures.forget(ids)
                return nil
            }
            // Its event was written by the statement, not through `Outbox.append`.
            database.outboxCommitted.ring()
            return ticket
        } catch  where Database.isUniqueViolation(error) {
            return nil
        }
    }

    /// One transaction of seven statements on the way that succeeds (begin, fixtures, ticket, legs,
    /// transfer, wallet, commit): the key is looked up only when the ticket's insert finds it taken
    /// or when the request is refused, since a retry must get its ticket even after the odds moved.
    /// Answers the ticket, and whether this call placed it (false for the one an earlier call placed
    /// under the key).
    private func placeOnce(_ request: PlaceTicket, by user: UserID, key: String) async throws -> (Ticket, new: Bool) {
        let fingerprint = Self.fingerprint(request)
        return try await database.transaction { sql in
            func earlier() async throws -> Ticket? {
                try await store.ticket(owner: user, key: key, on: sql).map { try replay($0, fingerprint: fingerprint) }
            }
            let ticket: Ticket
            do {
                ticket = try priced(
                    request, from: try await fixtures.fixtures(request.selections.map(\.fixtureId), held: true, on: sql))
            } catch {
                if let placed = try await earlier() { return (placed, false) }
                throw error
            }
            guard try await store.insert(ticket, owner: user, key: key, fingerprint: fingerprint, on: sql) else {
                guard let placed = try await earlier() else { throw CommonError.idempotencyKeyInUse }
                return (placed, false)
            }
            do {
                try await ledger.post(stake(of: ticket, from: user), at: ticket.placedAt, on: sql)
            } catch LedgerRefusal.insufficientFunds {
                throw BettingError.insufficientFunds(balance: try await ledger.balance(of: .wallet(user), on: sql) ?? 0)
            }
            try await outbox.append(try placedEvent(ticket, owner: user, request), on: sql)
            try await slips.placed(ticket.selections.map(\.fixtureId), for: user, on: sql)
            return (ticket, true)
        }
    }

    /// `betting.ticket.placed`, which commits with the ticket: its receipt, and its post in the chat
    /// when shared.
    private func placedEvent(_ ticket: Ticket, owner: UserID, _ request: PlaceTicket) throws -> EventEnvelope {
        try BettingEvent.ticketPlaced.event(
            BettingEvent.TicketChanged(ownerId: owner, ticket: ticket, shared: request.share == true), aggregateID: ticket.id.description,
            occurredAt: ticket.placedAt)
    }

    /// The stake's transfer: from the wallet to the house, under the ticket's id.
    private func stake(of ticket: Ticket, from user: UserID) -> Transfer {
        Transfer(
            id: ticket.id.uuid, debit: .wallet(user), credit: .house(currency: ticket.currency), amount: ticket.stake, kind: .stake,
            ticket: ticket.id)
    }

    func ticket(_ id: TicketID, viewer: UserID) async throws -> Ticket {
        guard let stored = try await database.read({ sql in try await store.ticket(id, on: sql) }), stored.owner == viewer else {
            throw CommonError.missing(id)
        }
        return stored.ticket
    }

    func mine(_ user: UserID, status: TicketStatus?, page: PageRequest) async throws -> Page<Ticket> {
        try await database.read { sql in try await store.tickets(of: user, status: status, page: page, on: sql) }
    }

    /// What needs no store: the stake's range, the number of selections, one per fixture.
    private func check(_ request: PlaceTicket) throws {
        try Slips.check(stake: request.stake, fixtures: request.selections.map(\.fixtureId), settings: settings)
    }

    /// The ticket at the odds of `current` (its fixtures); refused when a market is closed or a price
    /// moved (better prices are taken with `acceptBetterOdds`).
    private func priced(_ request: PlaceTicket, from current: [MatchID: StoredFixture]) throws -> Ticket {
        let at = now()
        var legs: [Ticket.Leg] = [], changes: [OddsChanged.Change] = []
        for (index, selection) in request.selections.enumerated() {
            guard let stored = current[selection.fixtureId] else {
                throw CommonError.invalid("selections[\(index)].fixtureId", "is not a fixture")
            }
            let fixture = stored.fixture
            guard Market.isOpen(status: fixture.status, kickoff: fixture.kickoff, now: at) else {
                throw BettingError.fixtureStarted(fixture.id)
            }
            let price = fixture.odds?[selection.pick]
            guard let price, price == selection.odds || (price > selection.odds && request.acceptBetterOdds == true) else {
                changes.append(OddsChanged.Change(fixtureId: fixture.id, pick: selection.pick, odds: price))
                continue
            }
            legs.append(
                Ticket.Leg(
                    fixtureId: fixture.id, pick: selection.pick, odds: price, result: .open, home: fixture.home.name,
                    away: fixture.away.name))
        }
        guard changes.isEmpty else { throw BettingError.oddsChanged(changes) }
        let odds = legs.map(\.odds)
        return Ticket(
            id: .timeOrdered(at: at), status: .open, stake: request.stake, currency: settings.currency,
            totalOdds: TicketMath.totalOdds(odds) ?? Odds(thousandths: Odds.scale + 1)!,
            potentialWinnings: TicketMath.winnings(stake: request.stake, odds: odds, cap: settings.maxPayout), payout: nil,
            selections: legs, placedAt: at, settledAt: nil)
    }

    private func replay(_ earlier: StoredTicket, fingerprint: String) throws -> Ticket {
        guard earlier.fingerprint == fingerprint else {
            throw CommonError.invalid(Routes.Header.idempotencyKey, "was already used for a different ticket")
        }
        return earlier.ticket
    }

    /// The request's identity: its fields in a fixed order (odds as placed, key order irrelevant).
    static func fingerprint(_ request: PlaceTicket) -> String {
        let picks = request.selections.map { "\($0.fixtureId)/\($0.pick.rawValue)/\($0.odds)" }.joined(separator: ",")
        // Sharing joined the request later: a ticket not shared keeps the fingerprint it always had.
        let text = "\(request.stake)|\(picks)|\(request.acceptBetterOdds ?? false)" + (request.share == true ? "|shared" : "")
        return SHA256.hash(data: Data(text.utf8)).hexString
    }
}
