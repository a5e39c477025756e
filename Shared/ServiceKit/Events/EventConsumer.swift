public import Contracts
public import Hummingbird
public import SQLKit

/// Applies incoming events exactly once: a batch is recorded in the inbox and handled in one
/// transaction, so a redelivered event changes nothing and a failed batch is retried whole
/// (events it had already applied are then skipped). One commit per batch keeps a busy read model
/// fast.
public struct EventConsumer: Sendable {
    public typealias Handler = @Sendable (EventEnvelope, any SQLDatabase) async throws -> Void
    /// Gets the new events of a batch, in order, to apply together (e.g. with bulk writes).
    public typealias BatchHandler = @Sendable ([EventEnvelope], any SQLDatabase) async throws -> Void

    let database: Database
    let handler: BatchHandler
    let inbox = Inbox()

    public init(database: Database, handler: @escaping Handler) {
        self.database = database
        self.handler = { events, sql in for event in events { try await handler(event, sql) } }
    }

    public init(database: Database, batchHandler: @escaping BatchHandler) {
        self.database = database
        self.handler = batchHandler
    }

    /// Applies events in the order given; returns how many were new.
    @discardableResult
    public func apply(_ events: [EventEnvelope]) async throws -> Int {
        guard !events.isEmpty else { return 0 }
        return try await database.transaction { sql in
            let fresh = try await inbox.markApplied(events, on: sql)
            if !fresh.isEmpty { try await handler(fresh, sql) }
            return fresh.count
        }
    }
}

extension RouterMethods where Context == HuddleRequestContext {
    /// `POST events` (mounted on the internal group: `/internal/events`) feeding `consumer`.
    public func addEventConsumer(_ consumer: EventConsumer) {
        post("events") { request, context in
            let batch = try await request.decodeJSON(EventBatch.self, context: context)
            try await consumer.apply(batch.events)
            return HTTPResponse.Status.noContent
        }
    }
}
