public import Contracts

extension BettingAPI {
    public enum Internal {
        public static let ledgerCheck = Endpoint<InternalCaller, NoBody, LedgerCheck>(
            .get, "/internal/betting/ledger/check", owner: .betting,
            summary: "The ledger's invariants, checked against every transfer: accounts sum to zero, no wallet below zero, "
                + "each account's totals equal its transfers")

        public static let all: [APIOperation] =
            [
                ledgerCheck.operation, EventsAPI.deliver(to: .betting).operation, EventsAPI.applied(by: .betting).operation,
                PersonalDataAPI.export(of: .betting).operation,
            ] + EventsAPI.publisherOperations(of: .betting)
    }
}

/// What `GET /internal/betting/ledger/check` found; `holds` when every invariant does.
public struct LedgerCheck: Codable, Equatable, Sendable {
    public var accounts: Int
    public var transfers: Int
    /// The sum of every account's balance (credits − debits; a wallet's from its running totals, the
    /// house's and the grants' from their transfers): zero in a sound ledger.
    public var sumOfBalances: Int
    /// Wallets whose debits exceed their credits.
    public var negativeWallets: Int
    /// Wallets whose running totals differ from the sum of their transfers.
    public var accountsOutOfStep: Int
    public var holds: Bool

    public init(accounts: Int, transfers: Int, sumOfBalances: Int, negativeWallets: Int, accountsOutOfStep: Int) {
        self.accounts = accounts
        self.transfers = transfers
        self.sumOfBalances = sumOfBalances
        self.negativeWallets = negativeWallets
        self.accountsOutOfStep = accountsOutOfStep
        holds = sumOfBalances == 0 && negativeWallets == 0 && accountsOutOfStep == 0
    }
}
