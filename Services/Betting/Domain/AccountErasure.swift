import Contracts
import Foundation
import SQLKit
import ServiceHTTP

/// A deleted account in betting: each open ticket is void and its stake refunded to the wallet
/// (with the transfer id its settlement would have used, so it is never paid twice); then the
/// tickets and the wallet, with every transfer of it, are kept under a pseudonym nothing links back
/// to the player — a ledger is a record to keep — and no one holds the wallet any more.
struct AccountErasure: Sendable {
    let store: any ErasureStore
    let tickets: any TicketStore
    let ledger: Ledger
    let now: @Sendable () -> Date

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        let at = now()
        for stored in try await store.openTickets(of: user, on: sql) {
            let ticket = stored.ticket
            try await store.voidLegs(of: ticket.id, on: sql)
            guard try await tickets.settle(ticket.id, status: .void, payout: ticket.stake, at: at, on: sql) else { continue }
            try await ledger.post(
                Transfer(
                    id: .nameBased("payout/\(ticket.id)", in: Wallets.transferNamespace), debit: .house(currency: ticket.currency),
                    credit: .wallet(user), amount: ticket.stake, kind: .refund, ticket: ticket.id),
                at: at, on: sql)
        }
        try await store.pseudonymize(user, as: UserID(), on: sql)
    }
}
