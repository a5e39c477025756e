import Contracts
import Foundation
import PostgresNIO
import ServerContracts
import ServiceStore

/// A ticket that nothing stands in the way of, placed in one PostgreSQL statement: it holds the
/// fixtures at the prices the ticket was priced at (still open at `placedAt`), debits the wallet if
/// all are held and it has the stake, and inserts the stake's transfer, the ticket and its legs —
/// all or nothing, as any statement is. No row when something stood in the way. The ticket's event
/// (`betting.ticket.placed`) is written in the same statement, and its picks leave the slip
/// (`SlipStore.placed`).
///
/// The same writes as `FixtureStore.fixtures(held:)`, `Ledger.post` and `TicketStore.insert`, which
/// place a ticket on SQLite and answer every refusal. A named prepared statement, so its SQL is fixed
/// and the legs go in arrays: planning this statement took as much of PostgreSQL's time as running it
/// (perf at 4 clients: parse and plan 42% of the server's CPU per ticket).
struct PlaceTicketStatement: PostgresPreparedStatement {
    typealias Row = String

    // Both are read on every execution: PostgresNIO's default name is `String(reflecting:)` of the
    // type (0.7% of betting's CPU a ticket in perf), and the SQL would be put together each time.
    static let name = "PlaceTicketStatement"

    /// Whether `database` speaks this statement's dialect; on SQLite a ticket takes the way of
    /// separate statements.
    static func runs(on database: Database) -> Bool { database.kind == .postgres }

    static let sql: String = {
        let price = [(Pick.home, "odds_home"), (.draw, "odds_draw"), (.away, "odds_away")]
            .map { pick, column in "WHEN '\(pick.rawValue)' THEN f.\(column)" }.joined(separator: " ")
        return """
            WITH held AS (
                SELECT f.id FROM fixtures f
                JOIN unnest($1::text[], $2::text[], $3::int8[]) AS wanted (id, pick, odds) ON f.id = wanted.id
                WHERE f.status = ANY($4::text[]) AND f.kickoff > $5 AND CASE wanted.pick \(price) END = wanted.odds
                FOR SHARE OF f),
            debited AS (
                UPDATE accounts SET debits = debits + $6
                WHERE id = $7 AND credits - debits >= $6 AND (SELECT COUNT(*) FROM held) = cardinality($1::text[])
                RETURNING id),
            posted AS (
                INSERT INTO transfers (id, debit_account, credit_account, amount, kind, ticket_id, created_at)
                SELECT $8, id, $9, $6, $10, $11, $12 FROM debited),
            placed AS (
                INSERT INTO tickets (
                    idempotency_key, id, user_id, fingerprint, status, stake, currency, total_odds, potential_winnings, placed_at)
                SELECT $13, $11, $14, $15, $16, $6, $17, $18, $19, $12 FROM debited
                RETURNING id),
            legs AS (
                INSERT INTO ticket_legs (ticket_id, position, fixture_id, pick, odds, result, home, away)
                SELECT placed.id, (leg.position - 1)::int, leg.id, leg.pick, leg.odds, leg.result, leg.home, leg.away
                FROM placed, unnest($1::text[], $2::text[], $3::int8[], $20::text[], $21::text[], $22::text[])
                    WITH ORDINALITY AS leg (id, pick, odds, result, home, away, position)),
            evented AS (
                INSERT INTO outbox (\(Outbox.columns.joined(separator: ", ")))
                SELECT $23, $24, $25, $26, $27, $28, $29, $30 FROM placed),
            unpicked AS (
                DELETE FROM slip_selections WHERE user_id = $14 AND fixture_id = ANY($1::text[]) AND EXISTS (SELECT 1 FROM placed)),
            unstaked AS (
                DELETE FROM slips WHERE user_id = $14 AND EXISTS (SELECT 1 FROM placed) AND NOT EXISTS (
                    SELECT 1 FROM slip_selections AS left_over WHERE left_over.user_id = $14 AND left_over.fixture_id <> ALL($1::text[])))
            SELECT id FROM placed
            """
    }()

    let ticket: Ticket
    let stake: Transfer
    let owner: UserID
    let key: String
    let fingerprint: String
    let openStatuses: [String]
    /// `betting.ticket.placed`, stamped with its trace (`Outbox.stamped`).
    let event: EventEnvelope

    func makeBindings() throws -> PostgresBindings {
        let legs = ticket.selections
        var bindings = PostgresBindings(capacity: 30)
        bindings.append(legs.map(\.fixtureId.description))  // $1
        bindings.append(legs.map(\.pick.rawValue))  // $2
        bindings.append(legs.map(\.odds.thousandths))  // $3
        bindings.append(openStatuses)  // $4
        bindings.append(ticket.placedAt)  // $5
        bindings.append(stake.amount)  // $6
        bindings.append(stake.debit.id)  // $7
        bindings.append(stake.id.lowercasedString)  // $8
        bindings.append(stake.credit.id)  // $9
        bindings.append(stake.kind.rawValue)  // $10
        bindings.append(ticket.id.description)  // $11
        bindings.append(ticket.placedAt)  // $12
        bindings.append(key)  // $13
        bindings.append(owner.description)  // $14
        bindings.append(fingerprint)  // $15
        bindings.append(ticket.status.rawValue)  // $16
        bindings.append(ticket.currency)  // $17
        bindings.append(ticket.totalOdds.thousandths)  // $18
        bindings.append(ticket.potentialWinnings)  // $19
        bindings.append(legs.map(\.result.rawValue))  // $20
        bindings.append(legs.map(\.home))  // $21
        bindings.append(legs.map(\.away))  // $22
        bindings.append(event.id.description)  // $23
        bindings.append(event.type)  // $24
        bindings.append(event.aggregateID)  // $25
        bindings.append(event.occurredAt)  // $26
        bindings.append(String(decoding: event.payload, as: UTF8.self))  // $27
        bindings.append(event.traceparent)  // $28
        bindings.append(event.tracestate)  // $29
        bindings.append(Outbox.partitionKey(of: event.aggregateID))  // $30
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
}
