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

    /// The event keeps the current span's trace context (`EventTracing`).
    public func append(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        let event = Self.stamped(event)
        if sql.dialect.name == "postgresql" {
            // Sequence numbers are taken at insert but become visible at commit; holding this lock
            // until commit makes them visible in order, so the dispatcher can never skip past an
            // event whose transaction is still open.
            try await sql.raw("SELECT pg_advisory_xact_lock(\(literal: Self.appendLock))").run()
        }
        try await sql.insert(into: "outbox").columns(Self.columns)
            .values(
                SQLBind(event.id.description), SQLBind(event.type), SQLBind(event.aggregateID), SQLBind(event.occurredAt),
                SQLBind(String(decoding: event.payload, as: UTF8.self)), SQLBind(event.traceparent), SQLBind(event.tracestate)
            ).run()
    }

    /// Events after position `seq`, oldest first, with their positions.
    func events(after seq: Int64, limit: Int, on sql: any SQLDatabase) async throws -> [(Int64, EventEnvelope)] {
        try await sql.select().columns("seq", "event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate")
            .from("outbox")
            .where("seq", .greaterThan, SQLBind(seq)).orderBy("seq").limit(limit)
            .all().map { row in
                let event = EventEnvelope(
                    id: try row.typedID("event_id"), type: try row.decode(column: "type", as: String.self),
                    aggregateID: try row.decode(column: "aggregate_id", as: String.self),
                    occurredAt: try row.decode(column: "occurred_at", as: Date.self),
                    payload: Data(try row.decode(column: "payload", as: String.self).utf8),
                    traceparent: try row.decode(column: "traceparent", as: String?.self),
                    tracestate: try row.decode(column: "tracestate", as: String?.self))
                return (try row.decode(column: "seq", as: Int64.self), event)
            }
    }

    /// How far `subscriber` has received; 0 when it has received nothing yet.
    func deliveredPosition(of subscriber: String, on sql: any SQLDatabase) async throws -> Int64 {
        try await sql.select().column("delivered_seq").from("outbox_positions")
            .where("subscriber", .equal, SQLBind(subscriber)).first()?
            .decode(column: "delivered_seq", as: Int64.self) ?? 0
    }

    func recordDelivered(to subscriber: String, through seq: Int64, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "outbox_positions").columns("subscriber", "delivered_seq")
            .values(SQLBind(subscriber), SQLBind(seq))
            .onConflict(with: ["subscriber"]) { $0.set(excludedValueOf: "delivered_seq") }
            .run()
    }

    /// Deletes events older than `cutoff` that every one of `subscribers` has received.
    func prune(deliveredTo subscribers: [String], before cutoff: Date, on sql: any SQLDatabase) async throws {
        var everyone: Int64 = .max
        for subscriber in subscribers { everyone = min(everyone, try await deliveredPosition(of: subscriber, on: sql)) }
        guard everyone != .max else { return }
        try await sql.delete(from: "outbox").where("seq", .lessThanOrEqual, SQLBind(everyone))
            .where("occurred_at", .lessThan, SQLBind(cutoff)).run()
    }

    /// Arbitrary constant shared by every writer of one store's outbox. A statement that writes its
    /// event itself (betting's `PlaceTicketStatement`) takes it before the insert, as `append` does.
    public static let appendLock: Int64 = 0x6875_6464_6f62

    /// The columns an event is written to, in the order `append` binds them.
    public static let columns = ["event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate"]

    /// `event` as `append` writes it: with the current span's trace context.
    public static func stamped(_ event: EventEnvelope) -> EventEnvelope {
        var event = event
        EventTracing.stamp(&event)
        return event
    }
}
