import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// An account of the ledger: a user's wallet, the house (stakes in, winnings out) and the grants
/// account (where opening balances come from). Only wallets must stay at or above zero.
enum LedgerAccount: Hashable, Sendable {
    case wallet(UserID)
    case house(currency: String)
    case grants(currency: String)

    var id: String {
        switch self {
        case .wallet(let user): "wallet:\(user)"
        case .house(let currency): "house:\(currency)"
        case .grants(let currency): "grants:\(currency)"
        }
    }

    var kind: String {
        switch self {
        case .wallet: "wallet"
        case .house: "house"
        case .grants: "grants"
        }
    }
}

/// One movement of money, immutable once posted: `amount` leaves `debit` and reaches `credit`.
struct Transfer: Equatable, Sendable {
    let id: UUID
    let debit: LedgerAccount
    let credit: LedgerAccount
    let amount: Int
    let kind: WalletTransaction.Kind
    let ticket: TicketID?
}

enum LedgerRefusal: Error, Equatable {
    /// The wallet holds less than the transfer takes.
    case insufficientFunds
    /// A transfer with this id was posted with other accounts, amount or kind (TigerBeetle's
    /// `exists_with_different_*`): a bug in whoever chose the id, never to be papered over.
    case existsWithDifferentFields(UUID)
    case noSuchAccount(String)
}

/// The double-entry ledger (TigerBeetle's rules, on SQL): every movement is a transfer between two
/// accounts, and a balance is what its transfers say. A wallet's totals (`debits`, `credits`) are
/// updated in the transaction that posts the transfer, guarding its floor; the house's and the
/// grants', which have no floor, are summed from their transfers (their `debits` and `credits`
/// columns stay zero), so no posting waits on another user's for those shared rows.
/// A transfer id is posted at most once: a repeat of the same transfer is `alreadyPosted`, a
/// different one under the same id an error.
struct Ledger: Sendable {
    enum Posting: Equatable { case posted, alreadyPosted }

    /// Creates the account if it does not exist; true when this call created it.
    @discardableResult
    func open(_ account: LedgerAccount, currency: String, at now: Date, on sql: any SQLDatabase) async throws -> Bool {
        var user: UserID?
        if case .wallet(let owner) = account { user = owner }
        let created = try await sql.insert(into: "accounts").columns("id", "kind", "user_id", "currency", "created_at")
            .values(SQLBind(account.id), SQLBind(account.kind), SQLBind(user?.description), SQLBind(currency), SQLBind(now))
            .ignoringConflicts(with: ["id"]).returning("id").all()
        return !created.isEmpty
    }

    /// Posts `transfer` with the time `now`. Only a wallet's totals are updated here, conditionally on
    /// its balance for a debit: a wallet is the one kind of account with a floor to hold. The house's
    /// and the grants' balances are summed from their transfers when asked for, so placing a ticket
    /// locks one row of one user and never waits on other users' tickets for the house's row.
    ///
    /// The wallet is updated before the transfer is inserted, so that a wallet never opened is told
    /// apart from a refused debit; a transfer id found already taken undoes that update (in the same
    /// transaction) and answers `alreadyPosted` or the refusal.
    @discardableResult
    func post(_ transfer: Transfer, at now: Date, on sql: any SQLDatabase) async throws -> Posting {
        if case .wallet = transfer.debit, try await !move(transfer.amount, from: transfer.debit, on: sql) {
            if try await repeated(transfer, on: sql) { return .alreadyPosted }
            guard try await exists(transfer.debit, on: sql) else { throw LedgerRefusal.noSuchAccount(transfer.debit.id) }
            // On PostgreSQL each statement sees what committed before it began: a wallet that a
            // concurrent first ticket opened after the debit's statement began is seen only now.
            // The debit's second try decides; a refusal then is a real one.
            guard try await move(transfer.amount, from: transfer.debit, on: sql) else { throw LedgerRefusal.insufficientFunds }
        }
        if case .wallet = transfer.credit {
            guard try await move(transfer.amount, to: transfer.credit, on: sql) else {
                if try await repeated(transfer, on: sql) { return .alreadyPosted }
                throw LedgerRefusal.noSuchAccount(transfer.credit.id)
            }
        }
        let inserted = try await sql.insert(into: "transfers")
            .columns("id", "debit_account", "credit_account", "amount", "kind", "ticket_id", "created_at")
            .values(
                SQLBind(transfer.id.lowercasedString), SQLBind(transfer.debit.id), SQLBind(transfer.credit.id),
                SQLBind(transfer.amount), SQLBind(transfer.kind.rawValue), SQLBind(transfer.ticket?.description), SQLBind(now)
            )
            .ignoringConflicts(with: ["id"]).returning("id").all()
        guard inserted.isEmpty else { return .posted }
        if case .wallet = transfer.debit { _ = try await move(-transfer.amount, from: transfer.debit, on: sql) }
        if case .wallet = transfer.credit { _ = try await move(-transfer.amount, to: transfer.credit, on: sql) }
        guard try await repeated(transfer, on: sql) else { throw LedgerRefusal.existsWithDifferentFields(transfer.id) }
        return .alreadyPosted
    }

    /// Debits a wallet by `amount` if it holds that much; false when it does not or does not exist.
    private func move(_ amount: Int, from wallet: LedgerAccount, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.raw(
            """
            UPDATE accounts SET debits = debits + \(bind: amount)
            WHERE id = \(bind: wallet.id) AND credits - debits >= \(bind: amount) RETURNING id
            """
        ).all().isEmpty
    }

    /// Credits a wallet by `amount`; false when it does not exist.
    private func move(_ amount: Int, to wallet: LedgerAccount, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.raw("UPDATE accounts SET credits = credits + \(bind: amount) WHERE id = \(bind: wallet.id) RETURNING id").all()
            .isEmpty
    }

    /// True when this very transfer was posted before; a different transfer under its id is a refusal.
    private func repeated(_ transfer: Transfer, on sql: any SQLDatabase) async throws -> Bool {
        guard let posted = try await isPosted(transfer, on: sql) else { return false }
        guard posted else { throw LedgerRefusal.existsWithDifferentFields(transfer.id) }
        return true
    }

    /// A wallet's credits − debits, its row locked until the transaction ends (a no-op update: the
    /// same statement on both stores); nil for a wallet never opened.
    func lockedBalance(of wallet: LedgerAccount, on sql: any SQLDatabase) async throws -> Int? {
        try await sql.raw(
            "UPDATE accounts SET credits = credits WHERE id = \(bind: wallet.id) RETURNING CAST(credits - debits AS BIGINT) AS balance"
        ).first()?.decode(column: "balance", as: Int.self)
    }

    /// When a wallet was last topped up (its grant or a refill), and how many refills it had.
    func topUps(of wallet: LedgerAccount, on sql: any SQLDatabase) async throws -> (last: Date?, refills: Int) {
        let kinds = [WalletTransaction.Kind.grant, .refill].map(\.rawValue)
        let row = try await sql.raw(
            """
            SELECT MAX(created_at) AS last, CAST(COALESCE(SUM(CASE WHEN kind = \(bind: WalletTransaction.Kind.refill.rawValue)
                THEN 1 ELSE 0 END), 0) AS BIGINT) AS refills
            FROM transfers WHERE credit_account = \(bind: wallet.id) AND kind IN (\(binds: kinds))
            """
        ).first()
        return (try row?.decode(column: "last", as: Date?.self), try row?.decode(column: "refills", as: Int.self) ?? 0)
    }

    /// credits − debits; nil for an account never opened.
    func balance(of account: LedgerAccount, on sql: any SQLDatabase) async throws -> Int? {
        guard case .wallet = account else {
            guard try await exists(account, on: sql) else { return nil }
            return try await sql.raw(
                """
                SELECT CAST(COALESCE(SUM(CASE WHEN credit_account = \(bind: account.id) THEN amount ELSE -amount END), 0) AS BIGINT) AS n
                FROM transfers WHERE credit_account = \(bind: account.id) OR debit_account = \(bind: account.id)
                """
            ).first()?.decode(column: "n", as: Int.self)
        }
        return try await sql.select().columns("debits", "credits").from("accounts").where("id", .equal, SQLBind(account.id)).first()
            .map { try $0.decode(column: "credits", as: Int.self) - $0.decode(column: "debits", as: Int.self) }
    }

    /// The wallet's transfers, newest first, as the wallet sees them (money in positive).
    func entries(of account: LedgerAccount, currency: String, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<
        WalletTransaction
    > {
        var query = sql.select().columns("id", "debit_account", "amount", "kind", "ticket_id", "created_at").from("transfers")
            .where {
                $0.where("debit_account", .equal, SQLBind(account.id)).orWhere("credit_account", .equal, SQLBind(account.id))
            }
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("created_at"), id: SQLColumn("id"), descending: true))
        }
        let rows = try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(page.limit + 1).all()
        return try page.page(rows) { row in
            TimeCursor(
                time: (try? row.decode(column: "created_at", as: Date.self)) ?? .distantPast,
                id: (try? row.decode(column: "id", as: String.self)) ?? ""
            )
            .encoded
        } item: { row in
            let amount = try row.decode(column: "amount", as: Int.self)
            let outgoing = try row.decode(column: "debit_account", as: String.self) == account.id
            let rawID = try row.decode(column: "id", as: String.self)
            guard let id = UUID(uuidString: rawID) else { throw CorruptRow(column: "id", value: rawID) }
            return WalletTransaction(
                id: WalletTransactionID(id), kind: try row.enumValue("kind"), amount: outgoing ? -amount : amount, currency: currency,
                ticketId: try row.decode(column: "ticket_id", as: String?.self).flatMap(TicketID.init),
                at: try row.decode(column: "created_at", as: Date.self))
        }
    }

    /// Every invariant of the ledger, recomputed from the transfers.
    func check(on sql: any SQLDatabase) async throws -> LedgerCheck {
        func count(_ query: SQLQueryString) async throws -> Int {
            try await sql.raw(query).first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return LedgerCheck(
            accounts: try await count("SELECT COUNT(*) AS n FROM accounts"),
            transfers: try await count("SELECT COUNT(*) AS n FROM transfers"),
            sumOfBalances: try await count(
                """
                SELECT CAST(
                    (SELECT COALESCE(SUM(credits - debits), 0) FROM accounts WHERE kind = 'wallet')
                    + (SELECT COALESCE(SUM(t.amount), 0) FROM transfers t JOIN accounts a ON a.id = t.credit_account WHERE a.kind <> 'wallet')
                    - (SELECT COALESCE(SUM(t.amount), 0) FROM transfers t JOIN accounts a ON a.id = t.debit_account WHERE a.kind <> 'wallet')
                AS BIGINT) AS n
                """),
            negativeWallets: try await count("SELECT COUNT(*) AS n FROM accounts WHERE kind = 'wallet' AND debits > credits"),
            accountsOutOfStep: try await count(
                """
                SELECT COUNT(*) AS n FROM accounts a
                WHERE a.kind = 'wallet' AND (
                    a.debits <> (SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM transfers WHERE debit_account = a.id)
                    OR a.credits <> (SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM transfers WHERE credit_account = a.id))
                """))
    }

    private func exists(_ account: LedgerAccount, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("id").from("accounts").where("id", .equal, SQLBind(account.id)).first() != nil
    }

    /// Whether the transfer under `transfer.id` is this one; nil when no transfer has that id.
    private func isPosted(_ transfer: Transfer, on sql: any SQLDatabase) async throws -> Bool? {
        guard
            let row = try await sql.select().columns("debit_account", "credit_account", "amount", "kind", "ticket_id").from("transfers")
                .where("id", .equal, SQLBind(transfer.id.lowercasedString)).first()
        else { return nil }
        return try row.decode(column: "debit_account", as: String.self) == transfer.debit.id
            && row.decode(column: "credit_account", as: String.self) == transfer.credit.id
            && row.decode(column: "amount", as: Int.self) == transfer.amount
            && row.decode(column: "kind", as: String.self) == transfer.kind.rawValue
            && row.decode(column: "ticket_id", as: String?.self) == transfer.ticket?.description
    }
}
