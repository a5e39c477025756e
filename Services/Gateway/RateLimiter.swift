import Foundation
import NIOConcurrencyHelpers
import ServiceHTTP

/// Token bucket: `burst` requests at once, refilled at `ratePerSecond`.
struct TokenBucket: Sendable {
    var tokens: Double
    var updatedAt: Double

    /// Takes one token; otherwise tells how many seconds until one is there.
    mutating func take(now: Double, ratePerSecond: Double, burst: Double) -> Double? {
        tokens = min(burst, tokens + (now - updatedAt) * ratePerSecond)
        updatedAt = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / ratePerSecond
    }
}

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
    func check(client: String) -> Int? { check(client: client, now: clock().timeIntervalSince1970) }

    /// As `check(client:)`, at `now` seconds since 1970.
    func check(client: String, now: Double) -> Int? {
        buckets.withLockedValue { buckets in
            if buckets.count > 100_000 { buckets = buckets.filter { now - $0.value.updatedAt < burst / ratePerSecond } }
            var bucket = buckets[client] ?? TokenBucket(tokens: burst, updatedAt: now)
            let wait = bucket.take(now: now, ratePerSecond: ratePerSecond, burst: burst)
            buckets[client] = bucket
            return wait.map { max(1, Int($0.rounded(.up))) }
        }
    }
}
