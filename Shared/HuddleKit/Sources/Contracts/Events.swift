public import Foundation

/// How a domain event travels between services (`POST /internal/events`).
/// `payload` is the event's own JSON; consumers decode it by `type`.
public struct EventEnvelope: Codable, Equatable, Sendable {
    public var id: EventID
    /// Dotted name, e.g. `auth.session.revoked`.
    public var type: String
    /// The aggregate the event is about; events of one aggregate are delivered in order.
    public var aggregateID: String
    public var occurredAt: Date
    public var payload: Data

    public init(id: EventID = .timeOrdered(), type: String, aggregateID: String, occurredAt: Date, payload: Data) {
        self.id = id
        self.type = type
        self.aggregateID = aggregateID
        self.occurredAt = occurredAt
        self.payload = payload
    }
}

/// The body of `POST /internal/events`: events in the order they must be applied.
public struct EventBatch: Codable, Equatable, Sendable {
    public var events: [EventEnvelope]

    public init(events: [EventEnvelope]) { self.events = events }
}
