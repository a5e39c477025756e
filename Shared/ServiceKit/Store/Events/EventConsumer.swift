import Contracts
import Hummingbird
public import SQLKit
public import ServerContracts

/// Applies incoming events exactly once: a batch is recorded in the inbox and handled in one
/// transaction, so a redelivered event changes nothing and a failed batch is retried whole
/// (events it had already applied are then skipped). One commit per batch keeps a busy read model
/// fast.
public struct EventConsumer: Sendable {
    public typealias Handler = @Sendable (EventEnvelope, any SQLDatabase) async throws -> Void

    private let process: @Sendable ([EventEnvelope]) async throws -> Int

    /// Applies each new event on its own, in order, each in its own trace (`EventTracing`).
    public init(database: Database, handler: @escaping Handler) {
        self.init(database: database, decode: { $0 }) { events, sql in
            for event in events { try await EventTracing.applying(event) { try await handler(event, sql) } }
        }
    }

    /// Decodes every event of a batch before the transaction, then gets the decoded new ones, in
    /// order, to apply together (e.g. with bulk writes). Decoding needs no database, so concurrent
    /// deliveries decode while another batch holds the database.
    public init<Change: Sendable>(
        database: Database, decode: @escaping @Sendable (EventEnvelope) throws -> Change,
        apply: @escaping @Sendable ([Change], any SQLDatabase) async throws -> Void
    ) {
        let inbox = Inbox(now: database.now)
        process = { events in
            guard !events.isEmpty else { return 0 }
            let changes = try await Self.decodeInParallel(events, decode)
            return try await database.transaction { sql in
                let fresh = try await inbox.markApplied(events, on: sql).map { changes[$0] }
                if !fresh.isEmpty { try await apply(fresh, sql) }
                return fresh.count
            }
        }
    }

    /// Decodes a large batch in slices on all cores, keeping the order: on a read model fed
    /// faster than it writes, decoding otherwise adds to every batch's turn at the database.
    static func decodeInParallel<Change: Sendable>(
        _ events: [EventEnvelope], _ decode: @escaping @Sendable (EventEnvelope) throws -> Change
    ) async throws -> [Change] {
        let slice = 256
        guard events.count > slice else { return try events.map(decode) }
        let starts = Array(stride(from: 0, to: events.count, by: slice))
        return try await withThrowingTaskGroup(of: (Int, [Change]).self) { group in
            for (index, start) in starts.enumerated() {
                let events = events[start..<min(start + slice, events.count)]
                group.addTask { (index, try events.map(decode)) }
            }
            var decoded = [[Change]](repeating: [], count: starts.count)
            for try await (index, changes) in group { decoded[index] = changes }
            return decoded.flatMap { $0 }
        }
    }

    /// Applies events in the order given; returns how many were new.
    @discardableResult
    public func apply(_ events: [EventEnvelope]) async throws -> Int { try await process(events) }
}
