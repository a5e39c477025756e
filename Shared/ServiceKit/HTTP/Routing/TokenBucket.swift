public import Foundation

/// A token bucket: `capacity` tokens, one more every `interval`, one taken per request. The one
/// every limit uses: the gateway's per client (in memory), chat's per player and room (in the store).
/// Pure, so its arithmetic is tested directly.
public struct TokenBucket: Equatable, Sendable {
    public let capacity: Double
    public let interval: TimeInterval
    public private(set) var tokens: Double
    public private(set) var updated: Date

    /// A full bucket.
    public init(capacity: Double, interval: TimeInterval, at now: Date) {
        self.init(capacity: capacity, interval: interval, tokens: capacity, updated: now)
    }

    public init(capacity: Double, interval: TimeInterval, tokens: Double, updated: Date) {
        self.capacity = capacity
        self.interval = interval
        self.tokens = tokens
        self.updated = updated
    }

    /// Takes a token; when none is left, nothing changes and the answer is how long until one is.
    public mutating func take(at now: Date) -> TimeInterval? {
        refill(at: now)
        guard tokens >= 1 else { return (1 - tokens) * interval }
        tokens -= 1
        return nil
    }

    /// Whether the bucket is full again at `now`, and so may be forgotten.
    public func isFull(at now: Date) -> Bool { tokens + max(0, now.timeIntervalSince(updated)) / interval >= capacity }

    private mutating func refill(at now: Date) {
        let elapsed = max(0, now.timeIntervalSince(updated))
        tokens = min(capacity, tokens + elapsed / interval)
        updated = now
    }
}
