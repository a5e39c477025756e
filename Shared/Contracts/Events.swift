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

extension TypedID where Tag == EventTag {
    /// A UUID version 7: the first 48 bits are the Unix time in milliseconds, the rest random. Event
    /// ids then grow with time, so the inboxes that index them append instead of inserting at
    /// random places in a large index.
    public static func timeOrdered(at date: Date = Date()) -> EventID {
        var random = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return EventID(uuid)
    }
}
