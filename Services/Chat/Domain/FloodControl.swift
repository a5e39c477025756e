import Contracts
import Foundation
import ServiceKit

/// A token bucket: `capacity` tokens, one more every `interval`, one taken per message. Pure, so
/// its arithmetic is tested directly.
struct TokenBucket: Equatable, Sendable {
    let capacity: Int
    let interval: TimeInterval
    private(set) var tokens: Double
    private(set) var updated: Date

    init(capacity: Int, interval: TimeInterval, at now: Date) {
        self.capacity = capacity
        self.interval = interval
        tokens = Double(capacity)
        updated = now
    }

    /// Takes a token; when none is left, nothing changes and the answer is how long until one is.
    mutating func take(at now: Date) -> TimeInterval? {
        refill(at: now)
        guard tokens >= 1 else { return (1 - tokens) * interval }
        tokens -= 1
        return nil
    }

    /// Whether the bucket is full again at `now`, so it may be forgotten.
    func isFull(at now: Date) -> Bool {
        tokens + max(0, now.timeIntervalSince(updated)) / interval >= Double(capacity)
    }

    private mutating func refill(at now: Date) {
        let elapsed = max(0, now.timeIntervalSince(updated))
        tokens = min(Double(capacity), tokens + elapsed / interval)
        updated = now
    }
}

/// Flood control per user and room on this instance: over the limit, a send is refused with the
/// seconds to wait. (Per instance: behind a load balancer a user's sends are spread over replicas,
/// so the sustained rate a room sees is at most replicas × the limit — a flood is still stopped.)
actor FloodControl {
    private struct Key: Hashable {
        let user: UserID
        let room: RoomID
    }

    private let capacity: Int
    private let interval: TimeInterval
    private let now: @Sendable () -> Date
    /// How a refused send describes this limit: `capacity` messages per room, refilled over `capacity × interval`.
    nonisolated let policy: RateLimitPolicy
    private var buckets: [Key: TokenBucket] = [:]
    private var taken = 0

    init(capacity: Int, interval: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.capacity = capacity
        self.interval = interval
        self.now = now
        policy = RateLimitPolicy(name: "chat-room", quota: capacity, windowSeconds: Int((Double(capacity) * interval).rounded(.up)))
    }

    /// Nil when `user` may send to `room` now; otherwise the whole seconds to wait (at least 1).
    func take(_ user: UserID, _ room: RoomID) -> Int? {
        let at = now()
        let key = Key(user: user, room: room)
        var bucket = buckets[key] ?? TokenBucket(capacity: capacity, interval: interval, at: at)
        let wait = bucket.take(at: at)
        buckets[key] = bucket
        taken += 1
        // Now and then, forget the buckets that have filled up again, so idle users cost nothing.
        if taken % 1024 == 0 { buckets = buckets.filter { !$0.value.isFull(at: at) } }
        return wait.map { max(1, Int($0.rounded(.up))) }
    }
}
