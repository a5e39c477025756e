public import Contracts
public import Hummingbird
public import SQLKit

/// Applies incoming events exactly once: each event is recorded in the inbox and handled in one
/// transaction, so a redelivered event changes nothing and a failed one is retried whole.
public struct EventConsumer: Sendable {
    public typealias Handler = @Sendable (EventEnvelope, any SQLDatabase) async throws -> Void

    let database: Database
    let handler: Handler
    let inbox = Inbox()

    public init(database: Database, handler: @escaping Handler) {
        self.database = database
        self.handler = handler
    }

    /// Applies events in the order given; returns how many were new.
    @discardableResult
    public func apply(_ events: [EventEnvelope]) async throws -> Int {
        var applied = 0
        for event in events {
            let isNew = try await database.transaction { sql in
                guard try await inbox.markApplied(event, on: sql) else { return false }
                try await handler(event, sql)
                return true
            }
            if isNew { applied += 1 }
        }
        return applied
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
