import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Events a subscriber refused too often, kept whole with the last error (`outbox_dead_letters`), so
/// the stream goes on past them and an operator can see them and send them again.
struct DeadLetterStore: Sendable {
    let outbox: Outbox

    /// Parks `event` for `subscriber` and moves the partition's cursor past it, in one transaction.
    func park(
        _ event: EventEnvelope, at position: OutboxPosition, for subscriber: String, in partition: OutboxPartition, error: String,
        attempts: Int, on sql: any SQLDatabase
    ) async throws {
        try await sql.insert(into: "outbox_dead_letters")
            .columns(
                "event_id", "subscriber", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate", "error",
                "attempts",
                "parked_at"
            )
            .values(
                SQLBind(event.id.description), SQLBind(subscriber), SQLBind(event.type), SQLBind(event.aggregateID),
                SQLBind(event.occurredAt),
                SQLBind(String(decoding: event.payload, as: UTF8.self)), SQLBind(event.traceparent), SQLBind(event.tracestate),
                SQLBind(error), SQLBind(attempts), SQLBind(outbox.now())
            )
            .ignoringConflicts(with: ["event_id", "subscriber"]).run()
        try await outbox.recordDelivered(to: subscriber, in: partition, through: position, on: sql)
    }

    /// The parked events, oldest first; only `id`'s when given.
    func parked(_ id: EventID? = nil, limit: Int = 500, on sql: any SQLDatabase) async throws -> [DeadLetter] {
        var query = sql.select().columns("*").from("outbox_dead_letters")
        if let id { query = query.where("event_id", .equal, SQLBind(id.description)) }
        return try await query.orderBy("parked_at").orderBy("event_id").limit(limit).all().map { row in
            DeadLetter(
                event: try Outbox.event(in: row), subscriber: try row.decode(column: "subscriber", as: ServiceModule.self),
                error: try row.decode(column: "error", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self),
                parkedAt: try row.decode(column: "parked_at", as: Date.self))
        }
    }

    /// How many events are parked for each subscriber that has any.
    func counts(on sql: any SQLDatabase) async throws -> [String: Int] {
        let rows = try await sql.select().column("subscriber").column(SQLFunction("count", args: SQLLiteral.all), as: "parked")
            .from("outbox_dead_letters").groupBy("subscriber").all()
        return try Dictionary(
            uniqueKeysWithValues: rows.map {
                (try $0.decode(column: "subscriber", as: String.self), try $0.decode(column: "parked", as: Int.self))
            })
    }

    /// `subscriber` took the event at last.
    func remove(_ id: EventID, for subscriber: ServiceModule, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "outbox_dead_letters").where("event_id", .equal, SQLBind(id.description))
            .where("subscriber", .equal, SQLBind(subscriber.rawValue)).run()
    }

    /// `subscriber` refused the event once more, with `error`.
    func refusedAgain(_ id: EventID, by subscriber: ServiceModule, error: String, on sql: any SQLDatabase) async throws {
        try await sql.update("outbox_dead_letters").set("error", to: SQLBind(error))
            .set("attempts", to: SQLBinaryExpression(SQLColumn("attempts"), .add, SQLLiteral.numeric("1")))
            .where("event_id", .equal, SQLBind(id.description)).where("subscriber", .equal, SQLBind(subscriber.rawValue)).run()
    }
}
