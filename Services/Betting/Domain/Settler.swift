import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Settles what a fixture's outcome decides, inside the caller's transaction: its open legs, then
/// each open ticket with a leg on it that is now decided, paying it with one ledger transfer whose
/// id is derived from the ticket — so a redelivered event, or a crash halfway (the transaction rolls
/// back whole), pays once. Each settled ticket is an event (`betting.ticket.settled`) in the same
/// transaction, so its owner is told exactly when it is paid.
struct Settler: Sendable {
    let tickets: any TicketStore
    let ledger: Ledger
    var outbox: Outbox { Outbox(now: now) }
    let settings: BettingSettings
    let now: @Sendable () -> Date

    func settle(_ fixture: MatchID, status: MatchStatus, regularTime: Match.Score?, on sql: any SQLDatabase) async throws {
        guard Settlement.leg(.home, status: status, regularTime: regularTime) != .open else { return }
        try await settleLegs(fixture, on: sql) { Settlement.leg($0, status: status, regularTime: regularTime) }
    }

    /// A postponed fixture whose deadline passed: every open leg on it is void.
    func voidPostponed(_ fixture: MatchID, on sql: any SQLDatabase) async throws {
        try await settleLegs(fixture, on: sql) { _ in .void }
    }

    private func settleLegs(_ fixture: MatchID, on sql: any SQLDatabase, result: (Pick) -> TicketStatus) async throws {
        try await tickets.settleLegs(on: fixture, result, on: sql)
        let at = now()
        var payouts: [Transfer] = []
        for stored in try await tickets.openTickets(on: fixture, on: sql) {
            let ticket = stored.ticket
            guard
                let (status, payout) = Settlement.ticket(
                    stake: ticket.stake, legs: ticket.selections.map { ($0.odds, $0.result) }, cap: settings.maxPayout),
                try await tickets.settle(ticket.id, status: status, payout: payout, at: at, on: sql)
            else { continue }
            var settled = ticket
            (settled.status, settled.payout, settled.settledAt) = (status, payout, at)
            try await outbox.append(
                BettingEvent.ticketSettled, aggregateID: ticket.id.description,
                payload: BettingEvent.TicketChanged(ownerId: stored.owner, ticket: settled, shared: false), on: sql)
            guard payout > 0 else { continue }
            payouts.append(
                Transfer(
                    id: .nameBased("payout/\(ticket.id)", in: Wallets.transferNamespace), debit: .house(currency: ticket.currency),
                    credit: .wallet(stored.owner), amount: payout, kind: status == .void ? .refund : .payout, ticket: ticket.id))
        }
        // Wallets are locked in one order by every settlement, so two fixtures settling at once never
        // wait on each other in a circle.
        for payout in payouts.sorted(by: { ($0.credit.id, $0.id.uuidString) < ($1.credit.id, $1.id.uuidString) }) {
            try await ledger.post(payout, at: at, on: sql)
        }
    }
}
