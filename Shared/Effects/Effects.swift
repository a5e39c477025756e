public import Foundation

/// What the servers do that is not a function of their input: reading the time (and so making the ids
/// that carry it, `TypedID.timeOrdered(at: now())`). One value is handed to every builder
/// (`ServiceDependencies.effects`), which passes `now` to its domain types, stores, providers and its
/// outbox; nothing else reads the clock. Production runs on `system`; a test hands its own
/// (ServiceKitTesting's `SettableClock`, or `Effects.unexpected` where nothing should read it).
public struct Effects: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// The system's clock: the one place the servers read the time. The stand-ins and the
    /// benchmarks, which play the world outside Huddle, read it here too.
    public static let system = Effects(now: { Date() })
}
