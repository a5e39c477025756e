import Foundation
import NIOConcurrencyHelpers
import ServiceHTTP

/// One bucket per client address. Checked on every request, so it is a lock around a dictionary,
/// not an actor hop; buckets that are full again are dropped to bound memory.
final class RateLimiter: Sendable {
    let ratePerSecond: Double
    let burst: Double
    private let buckets = NIOLockedValueBox<[String: TokenBucket]>([:])
    /// The gateway's clock, which refills the buckets.
    private let clock: @Sendable () -> Date

    init(ratePerSecond: Double, burst: Double, now: @escaping @Sendable () -> Date) {
        clock = now
        self.ratePerSecond = ratePerSecond
        self.burst = burst
    }

    /// How a refused request describes this limit. It is kept in each gateway's memory, so it holds
    /// per gateway instance (the name says so): behind N gateways a client gets up to N times the quota.
    var policy: RateLimitPolicy {
        RateLimitPolicy(name: "per-gateway-client", quota: Int(burst), windowSeconds: Int((burst / ratePerSecond).rounded(.up)))
    }

    /// nil when allowed; otherwise whole seconds to wait (at least 1), for `Retry-After`.
    func check(client: String) -> Int? { check(client: client, at: clock()) }

    /// As `check(client:)`, at `at`.
    func check(client: String, at: Date) -> Int? {
        buckets.withLockedValue { buckets in
            if buckets.count > 100_000 { buckets = buckets.filter { !$0.value.isFull(at: at) } }
            var bucket = buckets[client] ?? TokenBucket(capacity: burst, interval: 1 / ratePerSecond, at: at)
            let wait = bucket.take(at: at)
            buckets[client] = bucket
            return wait.map { max(1, Int($0.rounded(.up))) }
        }
    }
}
