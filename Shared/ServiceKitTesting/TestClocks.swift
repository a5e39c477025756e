public import Foundation
public import HuddleEffects
import NIOConcurrencyHelpers
import Testing

extension Effects {
    /// For code that must not read the time: each read is a test failure (and answers the epoch).
    public static let unexpected = Effects(now: {
        Issue.record("the clock was read where no read was expected")
        return Date(timeIntervalSince1970: 0)
    })
}

/// The time a test sets: starts where it is told and moves only when told.
public final class SettableClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date) { current = NIOLockedValueBox(start) }

    public var now: Date { current.withLockedValue { $0 } }

    public func advance(by seconds: TimeInterval) { current.withLockedValue { $0.addTimeInterval(seconds) } }

    public func set(_ date: Date) { current.withLockedValue { $0 = date } }
}
