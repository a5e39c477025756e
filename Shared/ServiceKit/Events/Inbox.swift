public import Contracts
public import SQLKit
import Foundation

/// The consumer side: remembers which events were applied, so a redelivered event is ignored.
public struct Inbox: Sendable {
    public init() {}

    /// Records `event` as applied and returns true, or returns false when it already was.
    /// Call inside the transaction that applies the event, so both commit together.
    public func markApplied(_ event: EventEnvelope, on sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.insert(into: "inbox").columns("event_id", "type", "applied_at")
            .values(SQLBind(event.id.description), SQLBind(event.type), SQLBind(Date()))
            .ignoringConflicts(with: ["event_id"])
            .returning("event_id")
            .all()
        return !inserted.isEmpty
    }
}
