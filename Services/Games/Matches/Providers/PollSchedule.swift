import Foundation

/// When the match poller may call the provider, and when it lists whole days again. Pure: the
/// poller hands it the outcome of each call and the time, and asks before the next one.
struct PollSchedule: Sendable, Equatable {
    /// How often days are listed again (fixtures not in play change seldom).
    let dayInterval: TimeInterval
    /// The live tick; the first wait after a failure.
    let liveInterval: TimeInterval

    private(set) var nextDaySweep: Date = .distantPast
    private(set) var nextLivePoll: Date = .distantPast
    /// No call before this (after a 429, a spent allowance or a failure).
    private(set) var pausedUntil: Date = .distantPast
    private(set) var failuresInARow = 0

    init(dayInterval: TimeInterval, liveInterval: TimeInterval) {
        self.dayInterval = dayInterval
        self.liveInterval = liveInterval
    }

    func mayCall(at now: Date) -> Bool { now >= pausedUntil }

    func isDaySweepDue(at now: Date) -> Bool { now >= nextDaySweep }

    mutating func sweptDays(at now: Date) { nextDaySweep = now.addingTimeInterval(dayInterval) }

    /// Whether anything is due: a day sweep or the live tick.
    func isDue(at now: Date) -> Bool { mayCall(at: now) && (now >= nextDaySweep || now >= nextLivePoll) }

    mutating func polledLive(at now: Date) { nextLivePoll = now.addingTimeInterval(liveInterval) }

    /// A call answered. With none of the allowance left, wait for the provider's next minute.
    mutating func answered(remaining: Int?, at now: Date) {
        failuresInARow = 0
        if remaining == 0 {
            pausedUntil = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60)
        }
    }

    /// Too many requests: wait as long as the provider says.
    mutating func rateLimited(retryAfterSeconds: Int, at now: Date) {
        pausedUntil = now.addingTimeInterval(TimeInterval(max(1, retryAfterSeconds)))
    }

    /// The provider is down or refused: wait one live tick, doubling with each failure in a row up
    /// to the day interval, so a provider that is down is not hammered and one that comes back is
    /// heard from soon. What is stored stays served meanwhile.
    mutating func failed(at now: Date) {
        failuresInARow += 1
        let wait = min(dayInterval, liveInterval * pow(2, Double(min(failuresInARow - 1, 16))))
        pausedUntil = now.addingTimeInterval(wait)
    }
}
