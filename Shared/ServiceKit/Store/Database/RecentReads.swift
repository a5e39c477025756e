import NIOConcurrencyHelpers

/// What an instance read from its store, answered again for `maxAge` without a read: for values many
/// requests ask for and that may lag a little (a user's blocks, a fixture's prices). Answered under a
/// lock, without a hop: asked on every message of every socket, an actor queued the asks behind each
/// other. Past 10,000 entries the stale ones are dropped.
public final class RecentReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let readAt: ContinuousClock.Instant
    }

    private let maxAge: Duration
    private let entries = NIOLockedValueBox<[Key: Entry]>([:])

    public init(maxAge: Duration) { self.maxAge = maxAge }

    /// The value of `key` if it was read less than `maxAge` ago.
    public func fresh(_ key: Key) -> Value? {
        let now = ContinuousClock.now
        return entries.withLockedValue { entries in
            guard let entry = entries[key], now - entry.readAt < maxAge else { return nil }
            return entry.value
        }
    }

    /// The value of `key` as last read, however long ago (for when the store cannot be read).
    public func last(_ key: Key) -> Value? { entries.withLockedValue { $0[key]?.value } }

    /// Remembers `values` as read now.
    public func remember(_ values: [Key: Value]) {
        let now = ContinuousClock.now
        entries.withLockedValue { entries in
            if entries.count > 10_000 { entries = entries.filter { now - $0.value.readAt < maxAge } }
            for (key, value) in values { entries[key] = Entry(value: value, readAt: now) }
        }
    }

    public func forget(_ keys: some Sequence<Key>) {
        entries.withLockedValue { entries in for key in keys { entries[key] = nil } }
    }
}
