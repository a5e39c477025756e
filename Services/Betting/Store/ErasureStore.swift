import Contracts
import Foundation
import SQLKit
import ServiceStore

/// What betting holds of a deleted account: its open tickets to void, and the rows the ledger keeps
/// under a pseudonym.
protocol ErasureStore: Sendable {
    /// The owner's open tickets, held until the transaction ends.
    func openTickets(of owner: UserID, on sql: any SQLDatabase) async throws -> [StoredTicket]
    /// Sets every open leg of `ticket` void.
    func voidLegs(of ticket: TicketID, on sql: any SQLDatabase) async throws
    /// Moves the owner's tickets and wallet (its account and every transfer of it) to `pseudonym`,
    /// and forgets the slip.
    func pseudonymize(_ owner: UserID, as pseudonym: UserID, on sql: any SQLDatabase) async throws
}

struct SQLErasureStore: ErasureStore {
    let tickets: any TicketStore

    func openTickets(of owner: UserID, on sql: any SQLDatabase) async throws -> [StoredTicket] {
        var open: [StoredTicket] = []
        let ids = try await sql.select().column("id").from("tickets").where("user_id", .equal, SQLBind(owner.description))
            .where("status", .equal, SQLBind(TicketStatus.open.rawValue)).orderBy("id").all().map { try $0.typedID("id") as TicketID }
        for id in ids { if let ticket = try await tickets.ticket(id, on: sql) { open.append(ticket) } }
        return open
    }

    func voidLegs(of ticket: TicketID, on sql: any SQLDatabase) async throws {
        try await sql.update("ticket_legs").set("result", to: SQLBind(TicketStatus.void.rawValue))
            .where("ticket_id", .equal, SQLBind(ticket.description)).where("result", .equal, SQLBind(TicketStatus.open.rawValue)).run()
    }

    func pseudonymize(_ owner: UserID, as pseudonym: UserID, on sql: any SQLDatabase) async throws {
        try await sql.update("tickets").set("user_id", to: SQLBind(pseudonym.description)).where(
            "user_id", .equal, SQLBind(owner.description)
        )
        .run()
        for table in ["slip_selections", "slips"] {
            try await sql.delete(from: table).where("user_id", .equal, SQLBind(owner.description)).run()
        }
        // Transfers reference the account, so the wallet is copied under its new id, its transfers
        // moved to it, and the old row removed.
        let old = LedgerAccount.wallet(owner).id, new = LedgerAccount.wallet(pseudonym).id
        try await sql.raw(
            """
            INSERT INTO accounts (id, kind, user_id, currency, debits, credits, created_at)
            SELECT \(bind: new), kind, \(bind: pseudonym.description), currency, debits, credits, created_at FROM accounts WHERE id = \(bind: old)
            """
        ).run()
        try await sql.update("transfers").set("debit_account", to: SQLBind(new)).where("debit_account", .equal, SQLBind(old)).run()
        try await sql.update("transfers").set("credit_account", to: SQLBind(new)).where("credit_account", .equal, SQLBind(old)).run()
        try await sql.delete(from: "accounts").where("id", .equal, SQLBind(old)).run()
    }
}
