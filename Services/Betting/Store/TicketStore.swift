import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// A placed ticket with who placed it and under which idempotency key, which commit with it.
struct StoredTicket: Sendable {
    let ticket: Ticket
    let owner: UserID
    let fingerprint: String
}

/// Tickets and their legs.
protocol TicketStore: Sendable {
    /// Inserts the ticket and its legs; false (and nothing written) when the owner already placed a
    /// ticket under `key`.
    func insert(_ ticket: Ticket, owner: UserID, key: String, fingerprint: String, on sql: any SQLDatabase) async throws -> Bool
    func ticket(_ id: TicketID, on sql: any SQLDatabase) async throws -> StoredTicket?
    func ticket(owner: UserID, key: String, on sql: any SQLDatabase) async throws -> StoredTicket?
    /// The owner's tickets, newest first.
    func tickets(of owner: UserID, status: TicketStatus?, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<Ticket>
    /// Sets the result of the open legs on `fixture`: `result(pick)` for each.
    func settleLegs(on fixture: MatchID, _ result: (Pick) -> TicketStatus, on sql: any SQLDatabase) async throws
    /// Open tickets with a leg on `fixture`, held until the transaction ends.
    func openTickets(on fixture: MatchID, on sql: any SQLDatabase) async throws -> [StoredTicket]
    /// Marks an open ticket settled; false when it already was.
    func settle(_ id: TicketID, status: TicketStatus, payout: Int, at now: Date, on sql: any SQLDatabase) async throws -> Bool
}

struct SQLTicketStore: TicketStore {
    private static let columns = [
        "id", "user_id", "fingerprint", "status", "stake", "currency", "total_odds", "potential_winnings", "payout", "placed_at",
        "settled_at",
    ]

    func insert(_ ticket: Ticket, owner: UserID, key: String, fingerprint: String, on sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.insert(into: "tickets")
            .columns(["idempotency_key"] + Self.columns)
            .values(
                SQLBind(key), SQLBind(ticket.id.description), SQLBind(owner.description), SQLBind(fingerprint),
                SQLBind(ticket.status.rawValue), SQLBind(ticket.stake), SQLBind(ticket.currency), SQLBind(ticket.totalOdds.thousandths),
                SQLBind(ticket.potentialWinnings), SQLBind(ticket.payout), SQLBind(ticket.placedAt), SQLBind(ticket.settledAt)
            ).ignoringConflicts(with: ["user_id", "idempotency_key"]).returning("id").all()
        guard !inserted.isEmpty else { return false }
        var legs = sql.insert(into: "ticket_legs").columns("ticket_id", "position", "fixture_id", "pick", "odds", "result", "home", "away")
        for (position, leg) in ticket.selections.enumerated() {
            legs = legs.values(
                SQLBind(ticket.id.description), SQLBind(position), SQLBind(leg.fixtureId.description), SQLBind(leg.pick.rawValue),
                SQLBind(leg.odds.thousandths), SQLBind(leg.result.rawValue), SQLBind(leg.home), SQLBind(leg.away))
        }
        try await legs.run()
        return true
    }

    func ticket(_ id: TicketID, on sql: any SQLDatabase) async throws -> StoredTicket? {
        try await read(sql.select().columns(Self.columns).from("tickets").where("id", .equal, SQLBind(id.description)), on: sql).first
    }

    func ticket(owner: UserID, key: String, on sql: any SQLDatabase) async throws -> StoredTicket? {
        try await read(
            sql.select().columns(Self.columns).from("tickets").where("user_id", .equal, SQLBind(owner.description))
                .where("idempotency_key", .equal, SQLBind(key)), on: sql
        ).first
    }

    func tickets(of owner: UserID, status: TicketStatus?, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<Ticket> {
        var query = sql.select().columns(Self.columns).from("tickets").where("user_id", .equal, SQLBind(owner.description))
        if let status { query = query.where("status", .equal, SQLBind(status.rawValue)) }
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("placed_at"), id: SQLColumn("id"), descending: true))
        }
        let rows = try await read(
            query.orderBy("placed_at", .descending).orderBy("id", .descending).limit(page.limit + 1), on: sql)
        return page.page(rows) {
            TimeCursor(time: $0.ticket.placedAt, id: $0.ticket.id).encoded
        } item: {
            $0.ticket
        }
    }

    func settleLegs(on fixture: MatchID, _ result: (Pick) -> TicketStatus, on sql: any SQLDatabase) async throws {
        for pick in Pick.allCases {
            try await sql.update("ticket_legs").set("result", to: SQLBind(result(pick).rawValue))
                .where("fixture_id", .equal, SQLBind(fixture.description)).where("pick", .equal, SQLBind(pick.rawValue))
                .where("result", .equal, SQLBind(TicketStatus.open.rawValue)).run()
        }
    }

    func openTickets(on fixture: MatchID, on sql: any SQLDatabase) async throws -> [StoredTicket] {
        let ids = try await sql.select().distinct().column("ticket_id").from("ticket_legs")
            .where("fixture_id", .equal, SQLBind(fixture.description)).all().map { try $0.decode(column: "ticket_id", as: String.self) }
        guard !ids.isEmpty else { return [] }
        return try await read(
            sql.select().columns(Self.columns).from("tickets").where("id", .in, SQLBind.group(ids.sorted()))
                .where("status", .equal, SQLBind(TicketStatus.open.rawValue)).orderBy("id").for(.update), on: sql)
    }

    func settle(_ id: TicketID, status: TicketStatus, payout: Int, at now: Date, on sql: any SQLDatabase) async throws -> Bool {
        let updated = try await sql.update("tickets").set("status", to: SQLBind(status.rawValue)).set("payout", to: SQLBind(payout))
            .set("settled_at", to: SQLBind(now)).where("id", .equal, SQLBind(id.description))
            .where("status", .equal, SQLBind(TicketStatus.open.rawValue)).returning("id").all()
        return !updated.isEmpty
    }

    /// Tickets of `query` with their legs (one more query for all of them).
    private func read(_ query: SQLSelectBuilder, on sql: any SQLDatabase) async throws -> [StoredTicket] {
        let rows = try await query.all()
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
        let legRows = try await sql.select().columns("ticket_id", "fixture_id", "pick", "odds", "result", "home", "away")
            .from("ticket_legs").where("ticket_id", .in, SQLBind.group(ids)).orderBy("ticket_id").orderBy("position").all()
        var legs: [String: [Ticket.Leg]] = [:]
        for row in legRows {
            let raw = try row.decode(column: "odds", as: Int.self)
            guard let odds = Odds(thousandths: raw) else { throw CorruptRow(column: "odds", value: String(raw)) }
            legs[try row.decode(column: "ticket_id", as: String.self), default: []].append(
                Ticket.Leg(
                    fixtureId: try row.typedID("fixture_id"), pick: try row.enumValue("pick"), odds: odds,
                    result: try row.enumValue("result"),
                    home: try row.decode(column: "home", as: String.self), away: try row.decode(column: "away", as: String.self)))
        }
        return try rows.map { row in
            let id = try row.decode(column: "id", as: String.self)
            let total = try row.decode(column: "total_odds", as: Int.self)
            guard let totalOdds = Odds(thousandths: total) else { throw CorruptRow(column: "total_odds", value: String(total)) }
            let ticket = Ticket(
                id: try row.typedID("id"), status: try row.enumValue("status"), stake: try row.decode(column: "stake", as: Int.self),
                currency: try row.decode(column: "currency", as: String.self), totalOdds: totalOdds,
                potentialWinnings: try row.decode(column: "potential_winnings", as: Int.self),
                payout: try row.decode(column: "payout", as: Int?.self), selections: legs[id] ?? [],
                placedAt: try row.decode(column: "placed_at", as: Date.self),
                settledAt: try row.decode(column: "settled_at", as: Date?.self))
            return StoredTicket(
                ticket: ticket, owner: try row.typedID("user_id"), fingerprint: try row.decode(column: "fingerprint", as: String.self))
        }
    }
}
