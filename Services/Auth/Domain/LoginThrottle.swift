import Foundation

/// After `maxFailures` failed logins for one email within `window`, further attempts are refused
/// until the oldest of those failures leaves the window.
struct LoginThrottle: Sendable {
    var maxFailures = 5
    var window: TimeInterval = 15 * 60

    /// Seconds to wait, or nil when a login may be attempted now. `failures` are the recent
    /// failure times for the email, any order.
    func retryAfter(failures: [Date], now: Date) -> Int? {
        let recent = failures.filter { now.timeIntervalSince($0) < window }.sorted(by: >)
        guard recent.count >= maxFailures else { return nil }
        let oldestCounted = recent[maxFailures - 1]
        return max(1, Int((oldestCounted.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }
}
