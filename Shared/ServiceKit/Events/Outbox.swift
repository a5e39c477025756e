public import Contracts
import Foundation
public import SQLKit

/// Writes domain events next to the change they describe. Call `append` inside the transaction
/// that makes the change: the event commits with it or not at all, and the dispatcher delivers it.
public struct Outbox: Sendable {
    public init() {}

    /// Appends an event whose payload is `payload` encoded as JSON.
    @discardableResult
    public func append<Payload>(
        _ type: EventType<Payload>, aggregateID: String, payload: Payload, on sql: any SQLDatabase
    ) async throws -> EventEnvelope {
        let event = try type.event(payload, aggregateID: aggregateID, occurredAt: Date())
        try await append(event, on: sql)
        return event
    }

    /// The event keeps the current span's trace context (`EventTracing`). Writers take no lock:
    /// the dispatcher holds back what a transaction still open may precede (`next(after:)`). Its
    /// commit wakes this instance's dispatcher (`Database.outboxCommitted`).
    public func append(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        let event = Self.stamped(event)
        try await sql.insert(into: "outbox").columns(Self.columns)
            .values(
                SQLBind(event.id.description), SQLBind(event.type), SQLBind(event.aggregateID), SQLBind(event.occurredAt),
                SQLBind(String(decoding: event.payload, as: UTF8.self)), SQLBind(event.traceparent), SQLBind(event.tracestate)
            ).run()
        TransactionEffects.current?.markAppendedEvents()
    }

    /// The events after `position` that may go out now, oldest first, with their positions: those of
    /// every transaction that had ended when this statement began, in the order of the transactions'
    /// ids, then of `seq`. And when the oldest event after `position` happened, whether or not it
    /// may go yet (`outbox_lag_seconds`).
    ///
    /// Sequence numbers are taken at insert but become visible at commit, so reading by `seq` alone
    /// could pass an event whose transaction is still open and never come back for it. A transaction
    /// still open has an id no lower than the snapshot's `xmin`, and one not yet begun a higher one:
    /// events below `xmin` are final, and whatever commits later sorts after them. Two transactions
    /// one after the other keep their order (the second's id is taken after the first committed).
    /// Since the held-back sort after the final ones, one read answers both: the rows up to the first
    /// held back. A transaction left open anywhere in the cluster holds delivery back until it ends.
    /// SQLite runs one writer at a time: there `tx` is 0 and the order is `seq`'s. Writers need no
    /// lock between them, where one held to commit made every event-writing transaction wait for the
    /// one before (a fifth of betting's time at 4 clients).
    func next(after position: OutboxPosition, limit: Int, on sql: any SQLDatabase) async throws -> OutboxBatch {
        let onPostgres = sql.dialect.name == "postgresql"
        var query = sql.select()
            .columns("tx", "seq", "event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate")
        if onPostgres { query = query.column(SQLRaw("tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS final")) }
        let rows = try await query.from("outbox").where(Self.order, .greaterThan, position.pair)
            .orderBy("tx").orderBy("seq").limit(limit).all()
        var batch = OutboxBatch(events: [], oldestWaiting: try rows.first?.decode(column: "occurred_at", as: Date.self))
        for row in rows {
            if onPostgres, try !row.decode(column: "final", as: Bool.self) {
                batch.heldBack = true
                break
            }
            let event = EventEnvelope(
                id: try row.typedID("event_id"), type: try row.decode(column: "type", as: String.self),
                aggregateID: try row.decode(column: "aggregate_id", as: String.self),
                occurredAt: try row.decode(column: "occurred_at", as: Date.self),
                payload: Data(try row.decode(column: "payload", as: String.self).utf8),
                traceparent: try row.decode(column: "traceparent", as: String?.self),
                tracestate: try row.decode(column: "tracestate", as: String?.self))
            let position = OutboxPosition(
                tx: try row.decode(column: "tx", as: Int64.self), seq: try row.decode(column: "seq", as: Int64.self))
            batch.events.append((position, event))
        }
        return batch
    }

    /// How far `subscriber` has received; `.start` when it has received nothing yet.
    func deliveredPosition(of subscriber: String, on sql: any SQLDatabase) async throws -> OutboxPosition {
        guard
            let row = try await sql.select().columns("delivered_tx", "delivered_seq").from("outbox_positions")
                .where("subscriber", .equal, SQLBind(subscriber)).first()
        else { return .start }
        return OutboxPosition(
            tx: try row.decode(column: "delivered_tx", as: Int64.self), seq: try row.decode(column: "delivered_seq", as: Int64.self))
    }

    /// Moves `subscriber`'s position to `position`, and only forward: two senders racing (an instance
    /// that lost its lease mid-delivery, say) once set it from 200 back to 100, and what had been
    /// delivered went out again.
    func recordDelivered(to subscriber: String, through position: OutboxPosition, on sql: any SQLDatabase) async throws {
        let stored = SQLGroupExpression([
            SQLColumn("delivered_tx", table: "outbox_positions"), SQLColumn("delivered_seq", table: "outbox_positions"),
        ])
        let offered = SQLGroupExpression([SQLColumn("delivered_tx", table: "excluded"), SQLColumn("delivered_seq", table: "excluded")])
        try await sql.insert(into: "outbox_positions").columns("subscriber", "delivered_tx", "delivered_seq")
            .values(SQLBind(subscriber), SQLBind(position.tx), SQLBind(position.seq))
            .onConflict(with: ["subscriber"]) {
                $0.set(excludedValueOf: "delivered_tx").set(excludedValueOf: "delivered_seq")
                    .where(SQLBinaryExpression(stored, .lessThan, offered))
            }
            .run()
    }

    /// Deletes events older than `cutoff` that every one of `subscribers` has received.
    func prune(deliveredTo subscribers: [String], before cutoff: Date, on sql: any SQLDatabase) async throws {
        var everyone: OutboxPosition?
        for subscriber in subscribers {
            let position = try await deliveredPosition(of: subscriber, on: sql)
            everyone = min(everyone ?? position, position)
        }
        guard let everyone else { return }
        try await sql.delete(from: "outbox").where(Self.order, .lessThanOrEqual, everyone.pair)
            .where("occurred_at", .lessThan, SQLBind(cutoff)).run()
    }

    /// The order events are delivered in, as a row value: (`tx`, `seq`).
    static let order = SQLGroupExpression([SQLColumn("tx"), SQLColumn("seq")])

    /// The columns an event is written to, in the order `append` binds them.
    public static let columns = ["event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate"]

    /// `event` as `append` writes it: with the current span's trace context.
    public static func stamped(_ event: EventEnvelope) -> EventEnvelope {
        var event = event
        EventTracing.stamp(&event)
        return event
    }
}

/// What `Outbox.next` answers: the events that may go now, when the oldest waiting happened, and
/// whether committed events wait behind a transaction still open.
struct OutboxBatch: Sendable {
    var events: [(OutboxPosition, EventEnvelope)]
    var oldestWaiting: Date?
    var heldBack = false
}

/// Where an event stands in the order of delivery: its transaction's id (0 on SQLite), then its
/// sequence number. A subscriber's position is that of the last event it received.
struct OutboxPosition: Sendable, Comparable {
    var tx: Int64
    var seq: Int64

    static let start = OutboxPosition(tx: 0, seq: 0)

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.tx, lhs.seq) < (rhs.tx, rhs.seq) }

    var pair: SQLGroupExpression { SQLGroupExpression([SQLBind(tx), SQLBind(seq)]) }
}
