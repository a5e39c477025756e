public import Contracts
public import Foundation
public import SQLKit
public import ServerContracts
import ServiceHTTP

/// The consumer side: remembers which events were applied, so a redelivered event is ignored.
public struct Inbox: Sendable {
    /// The module's clock, which stamps when each event was applied.
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Records the events as applied and returns the positions of those that were not yet, in
    /// their order. A few statements however many events; call inside the transaction that
    /// applies them.
    public func markApplied(_ events: [EventEnvelope], on sql: any SQLDatabase) async throws -> [Int] {
        var fresh: Set<String> = []
        let appliedAt = now()
        for chunk in events.statementSlices() {
            let rows = chunk.map { event -> [any SQLExpression] in [SQLBind(event.id.description), SQLBind(event.type), SQLBind(appliedAt)]
            }
            let inserted = try await sql.insert(into: "inbox").columns("event_id", "type", "applied_at").rows(rows)
                .ignoringConflicts(with: ["event_id"]).returning("event_id").all()
            for row in inserted { fresh.insert(try row.decode(column: "event_id", as: String.self)) }
        }
        // A batch that names one event twice applies it once.
        var seen: Set<String> = []
        return events.indices.filter { index in
            let id = events[index].id.description
            return fresh.contains(id) && seen.insert(id).inserted
        }
    }

    /// Records `event` as applied and returns true, or returns false when it already was.
    /// Call inside the transaction that applies the event, so both commit together.
    public func markApplied(_ event: EventEnvelope, on sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.insert(into: "inbox").columns("event_id", "type", "applied_at")
            .values(SQLBind(event.id.description), SQLBind(event.type), SQLBind(now()))
            .ignoringConflicts(with: ["event_id"])
            .returning("event_id")
            .all()
        return !inserted.isEmpty
    }

    /// When `event` was applied here; 404 while it has not been.
    public func applied(_ event: EventID, from database: Database) async throws -> AppliedEvent {
        let row = try await database.read { sql in
            try await sql.select().columns("type", "applied_at").from("inbox").where("event_id", .equal, SQLBind(event.description))
                .first().map { (try $0.decode(column: "type", as: String.self), try $0.decode(column: "applied_at", as: Date.self)) }
        }
        guard let (type, appliedAt) = row else { throw CommonError.notFound("This module has not applied event \(event).") }
        return AppliedEvent(eventId: event, type: type, appliedAt: appliedAt)
    }
}
