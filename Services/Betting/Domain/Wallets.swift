import Contracts
import Foundation
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Users' wallets: opened on first use with the configured grant, read from the ledger.
struct Wallets: Sendable {
    let database: Database
    let ledger: Ledger
    let settings: BettingSettings
    let now: @Sendable () -> Date

    /// Opens the user's wallet with its grant, once; the grant's transfer id is derived from the user,
    /// so concurrent first requests grant once. Its own transaction, before any that debits the
    /// wallet: a stake then locks only the house and the wallet, in that order, like a payout.
    func open(_ user: UserID) async throws {
        let wallet = LedgerAccount.wallet(user)
        if try await database.read({ sql in try await ledger.balance(of: wallet, on: sql) }) != nil { return }
        let currency = settings.currency
        try await database.transaction { sql in
            let at = now()
            guard try await ledger.open(wallet, currency: currency, at: at, on: sql), settings.grant > 0 else { return }
            try await ledger.post(
                Transfer(
                    id: .nameBased("grant/\(user)/\(currency)", in: Self.transferNamespace), debit: .grants(currency: currency),
                    credit: wallet, amount: settings.grant, kind: .grant, ticket: nil),
                at: at, on: sql)
        }
    }

    func wallet(of user: UserID) async throws -> Wallet {
        try await open(user)
        let balance = try await database.read { sql in try await ledger.balance(of: .wallet(user), on: sql) }
        return Wallet(balance: balance ?? 0, currency: settings.currency)
    }

    /// Tops the wallet up to the grant from the grants account, when `WalletRefill` says it may be. The
    /// wallet's row is locked first, so two refills asked at once credit once (the second is then too
    /// soon); the transfer id counts the wallet's refills, so a repeat could not post twice either.
    func refill(_ user: UserID) async throws -> Wallet {
        try await open(user)
        let wallet = LedgerAccount.wallet(user), currency = settings.currency
        let rule = WalletRefill(grant: settings.grant, every: settings.refillEvery)
        return try await database.transaction { sql in
            let at = now()
            guard let balance = try await ledger.lockedBalance(of: wallet, on: sql) else { throw CommonError.internalError }
            let topUps = try await ledger.topUps(of: wallet, on: sql)
            switch rule.decide(balance: balance, lastTopUp: topUps.last, at: at) {
            case .full: throw BettingError.refillNotDue(availableAt: nil)
            case .notDue(let availableAt): throw BettingError.refillNotDue(availableAt: availableAt)
            case .topUp(let amount):
                try await ledger.post(
                    Transfer(
                        id: .nameBased("refill/\(user)/\(currency)/\(topUps.refills + 1)", in: Self.transferNamespace),
                        debit: .grants(currency: currency), credit: wallet, amount: amount, kind: .refill, ticket: nil),
                    at: at, on: sql)
                return Wallet(balance: balance + amount, currency: currency)
            }
        }
    }

    func transactions(of user: UserID, page: PageRequest) async throws -> Page<WalletTransaction> {
        try await open(user)
        let currency = settings.currency
        return try await database.read { sql in try await ledger.entries(of: .wallet(user), currency: currency, page: page, on: sql) }
    }

    /// The house and grants accounts of the configured currency (at start).
    func openSystemAccounts() async throws {
        let currency = settings.currency
        try await database.transaction { sql in
            try await ledger.open(.house(currency: currency), currency: currency, at: now(), on: sql)
            try await ledger.open(.grants(currency: currency), currency: currency, at: now(), on: sql)
        }
    }

    /// Namespace of transfer ids derived from what they pay (a grant, a ticket's payout).
    /// 6f1c2b9e-54d3-4a8f-b0e7-2c9d8a1f3e65
    static let transferNamespace = UUID(
        uuid: (0x6f, 0x1c, 0x2b, 0x9e, 0x54, 0xd3, 0x4a, 0x8f, 0xb0, 0xe7, 0x2c, 0x9d, 0x8a, 0x1f, 0x3e, 0x65))

    /// The ledger's consistency check: every transfer balanced, every balance the sum of its entries.
    func checkLedger() async throws -> LedgerCheck {
        try await database.read { sql in try await ledger.check(on: sql) }
    }
}
