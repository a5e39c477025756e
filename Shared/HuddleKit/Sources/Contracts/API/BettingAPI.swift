/// Betting's operations: fixtures with 1X2 odds, the wallet and its ledger entries, the slip, tickets.
public enum BettingAPI {
    public static let fixtures = Endpoint<Anyone, NoBody, Page<Fixture>>(
        .get, "/v1/betting/fixtures", owner: .betting,
        summary: "Matches kicking off on a day (UTC; today by default) with their 1X2 odds, soonest first, all in one page; "
            + "a fixture's id is its match's id, and its market closes at kickoff",
        query: [fixturesDay])
    public static let fixturesDay = Query.day("date", description: "YYYY-MM-DD, UTC; today when absent")
    public static let fixture = Endpoint<Anyone, NoBody, Fixture>(
        .get, "/v1/betting/fixtures/{id}", owner: .betting, summary: "One fixture with its current odds")

    public static let wallet = Endpoint<SignedIn, NoBody, Wallet>(
        .get, "/v1/betting/wallet", owner: .betting,
        summary: "My balance in minor units; the wallet opens with the configured grant on first use")
    public static let transactions = Endpoint<SignedIn, NoBody, Page<WalletTransaction>>(
        .get, "/v1/betting/wallet/transactions", owner: .betting,
        summary: "My wallet's ledger entries, newest first: the grant, refills, stakes, payouts, refunds", query: Query.paging)
    public static let refill = Endpoint<SignedIn, NoBody, Wallet>(
        .post, "/v1/betting/wallet/refill", owner: .betting,
        summary: "Tops my wallet up to the grant, through the ledger, when it holds less and the grant or the last refill "
            + "is betting.wallet.refill.every (7 days) ago: my wallet after it. Otherwise 409 REFILL_NOT_DUE, with availableAt "
            + "when the next refill may be asked for (absent when the wallet holds the grant already)",
        problems: [.refillNotDue])

    public static let slip = Endpoint<SignedIn, NoBody, Slip>(
        .get, "/v1/betting/slip", owner: .betting,
        summary: "My draft ticket with the current odds: totalOdds and potentialWinnings = stake × the odds' product, rounded down")
    public static let pick = Endpoint<SignedIn, SlipPick, Slip>(
        .put, "/v1/betting/slip/selections/{fixtureId}", owner: .betting,
        summary: "Pick 1, X or 2 on a fixture whose market is open; replaces my earlier pick on it",
        problems: [.fixtureStarted, .tooManySelections])
    public static let unpick = Endpoint<SignedIn, NoBody, Slip>(
        .delete, "/v1/betting/slip/selections/{fixtureId}", owner: .betting, summary: "Remove my pick on a fixture (if any)")
    public static let stake = Endpoint<SignedIn, SlipStake, Slip>(
        .put, "/v1/betting/slip/stake", owner: .betting, summary: "Set the slip's stake in minor units, within the limits",
        problems: [.stakeOutOfRange])
    public static let replaceSlip = Endpoint<SignedIn, SlipRequest, Slip>(
        .put, "/v1/betting/slip", owner: .betting,
        summary: "Replace my slip's picks and stake at once (a guest's slip after signing in); a closed market is a 422 "
            + "FIXTURE_STARTED and leaves the slip as it was",
        problems: [.fixtureStarted, .stakeOutOfRange, .tooManySelections, .duplicateSelection])
    public static let quote = Endpoint<Anyone, SlipRequest, Slip>(
        .post, "/v1/betting/quote", owner: .betting,
        summary: "Price a slip without an account and without keeping it: each pick at the current odds, which markets are "
            + "closed (open false, left out of the totals), the total odds and the potential winnings",
        problems: [.stakeOutOfRange, .tooManySelections, .duplicateSelection])
    public static let clearSlip = Endpoint<SignedIn, NoBody, Slip>(
        .delete, "/v1/betting/slip", owner: .betting, summary: "Empty the slip (picks and stake)")

    public static let placeTicket = Endpoint<SignedIn, PlaceTicket, Ticket>(
        .post, "/v1/betting/tickets", owner: .betting,
        summary: "Place a ticket with the odds I saw: the stake leaves my wallet through the ledger in the same transaction. "
            + "Odds that moved are a 409 ODDS_CHANGED carrying the current ones (better ones are taken with acceptBetterOdds). "
            + "The same Idempotency-Key and body answers the same ticket and debits nothing. "
            + "Its receipt comes to my inbox; with share, it is also posted in the global chat as my message",
        status: 201,
        problems: [
            .oddsChanged, .fixtureStarted, .insufficientFunds, .duplicateSelection, .stakeOutOfRange, .tooManySelections,
        ],
        traits: .idempotencyKeyRequired, otherAnswers: [409: OddsChanged.self])
    public static let tickets = Endpoint<SignedIn, NoBody, Page<Ticket>>(
        .get, "/v1/betting/tickets", owner: .betting, summary: "My tickets, newest first",
        query: [ticketStatus] + Query.paging)
    public static let ticketStatus = Query.choice("status", TicketStatus.self)
    public static let ticket = Endpoint<SignedIn, NoBody, Ticket>(
        .get, "/v1/betting/tickets/{id}", owner: .betting, summary: "One of my tickets (404 for anyone else's)")

    public static let all: [APIOperation] = [
        fixtures.operation, fixture.operation, wallet.operation, transactions.operation, refill.operation, slip.operation,
        pick.operation,
        unpick.operation, stake.operation, replaceSlip.operation, quote.operation, clearSlip.operation, placeTicket.operation,
        tickets.operation, ticket.operation,
    ]
}
