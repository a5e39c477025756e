import Foundation
import ServiceHTTP

/// Password guessing slowed without lockouts (OWASP's authentication guidance): failed sign-ins
/// make the next attempt wait, and the wait doubles with each failure. Failures count per account
/// and client address, so a guesser slows only their own attempts; and, more gently and with a short
/// cap, per account across addresses, so many addresses guessing one account are slowed too. No one
/// who knows a teammate's email can keep them out: from the teammate's own address the account-wide
/// wait is at most `maxAccountDelay`. Unknown emails are counted the same way, so the answers say
/// nothing about which emails have accounts.
struct LoginThrottle: Sendable {
    /// A recent failed sign-in for the account being tried.
    struct Failure: Sendable {
        var at: Date
        /// Whether it came from the address trying now.
        var fromThisClient: Bool
    }

    /// Failures from one address before waits begin; then 1 s, 2 s, 4 s … up to `maxClientDelay`.
    var freeClientFailures = 3
    var maxClientDelay: TimeInterval = 15 * 60
    /// Failures from all addresses before waits begin; then 1 s, 2 s, 4 s … up to `maxAccountDelay`.
    var freeAccountFailures = 10
    var maxAccountDelay: TimeInterval = 60
    /// Failures older than this are forgotten.
    var window: TimeInterval = 15 * 60

    /// How a refused sign-in describes this limit: three free failures per address in the window.
    static let policy = RateLimitPolicy(name: "sign-in", quota: 3, windowSeconds: 15 * 60)

    /// Seconds to wait before the next attempt, or nil when one may be made now.
    func retryAfter(failures: [Failure], now: Date) -> Int? {
        let recent = failures.filter { now.timeIntervalSince($0.at) < window }
        let waits = [
            wait(after: recent.filter(\.fromThisClient), free: freeClientFailures, cap: maxClientDelay, now: now),
            wait(after: recent, free: freeAccountFailures, cap: maxAccountDelay, now: now),
        ]
        return waits.compactMap { $0 }.max()
    }

    private func wait(after failures: [Failure], free: Int, cap: TimeInterval, now: Date) -> Int? {
        guard failures.count >= free, let last = failures.map(\.at).max() else { return nil }
        let delay = min(cap, pow(2, Double(failures.count - free)))
        let remaining = last.addingTimeInterval(delay).timeIntervalSince(now)
        return remaining > 0 ? max(1, Int(remaining.rounded(.up))) : nil
    }
}
