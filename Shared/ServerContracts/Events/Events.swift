public import Contracts
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
    /// The W3C trace context of the work that caused the event (its request's trace), kept with it
    /// so its consumers continue that trace; absent for an event made outside a trace.
    public var traceparent: String?
    public var tracestate: String?

    /// `id` defaults to one ordered by `occurredAt`.
    public init(
        id: EventID? = nil, type: String, aggregateID: String, occurredAt: Date, payload: Data, traceparent: String? = nil,
        tracestate: String? = nil
    ) {
        self.id = id ?? .timeOrdered(at: occurredAt)
        self.type = type
        self.aggregateID = aggregateID
        self.occurredAt = occurredAt
        self.payload = payload
        self.traceparent = traceparent
        self.tracestate = tracestate
    }
}

/// The body of `POST /internal/events`: events in the order they must be applied.
public struct EventBatch: Codable, Equatable, Sendable {
    public var events: [EventEnvelope]

    public init(events: [EventEnvelope]) { self.events = events }
}

/// An event a subscriber refused `attempts` times, set aside by its publisher with the last error,
/// while the events after it went on.
public struct DeadLetter: Codable, Equatable, Sendable {
    public var event: EventEnvelope
    public var subscriber: ServiceModule
    public var error: String
    public var attempts: Int
    public var parkedAt: Date

    public init(event: EventEnvelope, subscriber: ServiceModule, error: String, attempts: Int, parkedAt: Date) {
        self.event = event
        self.subscriber = subscriber
        self.error = error
        self.attempts = attempts
        self.parkedAt = parkedAt
    }
}

/// `GET /internal/events/dead-letters`: the parked events, oldest first (at most 500).
public struct DeadLetters: Codable, Equatable, Sendable {
    public var items: [DeadLetter]

    public init(items: [DeadLetter]) { self.items = items }
}

/// One kind of event, described once: its name on the wire, the type of its payload, and the module
/// that publishes it. Publishers append it with a payload of that type; consumers register a
/// handler for it (`EventHandlers`) and get the payload decoded.
public struct EventType<Payload: Codable & Sendable>: EventKind, Hashable, CustomStringConvertible {
    /// Dotted: `games.game.created`.
    public let name: String
    public let owner: ServiceModule

    public init(_ name: String, owner: ServiceModule) {
        self.name = name
        self.owner = owner
    }

    public var description: String { name }

    /// Whether `event` is one of this kind.
    public func matches(_ event: EventEnvelope) -> Bool { event.type == name }

    public func payload(of event: EventEnvelope) throws -> Payload { try HuddleJSON.decoder.decode(Payload.self, from: event.payload) }

    /// An event of this kind about `aggregateID`, carrying `payload`.
    public func event(_ payload: Payload, aggregateID: String, occurredAt: Date) throws -> EventEnvelope {
        EventEnvelope(type: name, aggregateID: aggregateID, occurredAt: occurredAt, payload: try HuddleJSON.encoder.encode(payload))
    }
}

/// An `EventType` without its payload type: what lists of kinds hold.
public protocol EventKind: Sendable {
    var name: String { get }
    var owner: ServiceModule { get }
}

/// What a consumer does with each kind of event it takes, by description: the payload arrives
/// decoded as the kind's type; an event of a kind not registered is none of the consumer's business.
/// `Step` is what a handler makes of an event — a change to fold, or the work to do in the batch's
/// transaction.
public struct EventHandlers<Step: Sendable>: Sendable {
    private var handlers: [String: @Sendable (EventEnvelope) throws -> Step] = [:]
    /// Every kind registered, by name, with its publisher: what the wiring must deliver here.
    public private(set) var kinds: [String: ServiceModule] = [:]

    public init(_ register: (inout EventHandlers) -> Void) { register(&self) }

    /// Handles the events of `types` (one payload type) with `handle`.
    public mutating func on<Payload>(
        _ types: EventType<Payload>..., handle: @escaping @Sendable (Payload, EventEnvelope) throws -> Step
    ) {
        for type in types { register(type) { event in try handle(try type.payload(of: event), event) } }
    }

    /// Handles the events of `types` by `View`, a type that decodes only the part of their payload
    /// the consumer needs: for a large payload of which a few fields are read on a hot path.
    public mutating func on<Payload, View: Decodable & Sendable>(
        _ types: EventType<Payload>..., reading view: View.Type,
        handle: @escaping @Sendable (View, EventEnvelope) throws -> Step
    ) {
        for type in types {
            register(type) { event in try handle(try HuddleJSON.decoder.decode(View.self, from: event.payload), event) }
        }
    }

    private mutating func register(_ type: some EventKind, _ handler: @escaping @Sendable (EventEnvelope) throws -> Step) {
        precondition(handlers[type.name] == nil, "\(type.name) has two handlers")
        handlers[type.name] = handler
        kinds[type.name] = type.owner
    }

    /// The step for `event`, nil when no handler takes its kind.
    public func step(for event: EventEnvelope) throws -> Step? { try handlers[event.type].map { try $0(event) } }
}
