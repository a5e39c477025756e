import Contracts
import Foundation

/// How legs and tickets settle: pure, so every rule is tested without a store.
///
/// A leg is decided by the result after regular time (1X2 markets: also when the match went to extra
/// time or penalties). It is void when the match was cancelled, abandoned, awarded or a walkover, or
/// postponed and not replayed in time. A void leg counts as odds 1.000 (Pinnacle's rule).
enum Settlement {
    /// The result of `pick` for a fixture now at `status`; `open` while there is none yet.
    static func leg(_ pick: Pick, status: MatchStatus, regularTime: Match.Score?) -> TicketStatus {
        if voidStatuses.contains(status) { return .void }
        guard MatchStatus.finished.contains(status), let score = regularTime else { return .open }
        return winner(of: score) == pick ? .won : .lost
    }

    /// Ended without a result to settle on. PST is not here: a postponed match may be replayed in
    /// time, and is voided only when its deadline passes (`postponedDeadline`).
    static let voidStatuses: Set<MatchStatus> = [.cancelled, .abandoned, .awarded, .walkover]

    static func winner(of score: Match.Score) -> Pick {
        score.home > score.away ? .home : (score.home < score.away ? .away : .draw)
    }

    /// The last moment a postponed match may kick off again for its legs to stand.
    static func postponedDeadline(kickoff: Date, allowance: TimeInterval) -> Date { kickoff.addingTimeInterval(allowance) }

    /// A ticket's outcome from its legs, or nil while it is undecided: lost as soon as one leg is
    /// lost; otherwise decided when no leg is open — void (the stake back) when every leg is void,
    /// won (stake × the won legs' odds) when not.
    static func ticket(stake: Int, legs: [(odds: Odds, result: TicketStatus)], cap: Int) -> (status: TicketStatus, payout: Int)? {
        if legs.contains(where: { $0.result == .lost }) { return (.lost, 0) }
        guard !legs.contains(where: { $0.result == .open }) else { return nil }
        let won = legs.filter { $0.result == .won }.map(\.odds)
        if won.isEmpty { return (.void, stake) }
        return (.won, TicketMath.winnings(stake: stake, odds: won, cap: cap))
    }
}

/// When a fixture takes picks: not started by the provider's status, and its kickoff still ahead.
enum Market {
    static func isOpen(status: MatchStatus, kickoff: Date, now: Date) -> Bool {
        MatchStatus.beforeKickoff.contains(status) && kickoff > now
    }

    /// Statuses a match does not come back from: played, or called off for good. Postponed (PST) is
    /// not one: a postponed match is played later.
    static let ended: Set<MatchStatus> = MatchStatus.finished.union(Settlement.voidStatuses)

    /// Whether a report of `next` may replace a fixture reported `previous`. A fixture the provider
    /// once reported ended is never taken back to not started or in play (a feed that restarted and
    /// replays its day, a provider's mistake): its tickets are settled and paid, and its market must
    /// not open again.
    static func accepts(_ next: MatchStatus, after previous: MatchStatus) -> Bool {
        !ended.contains(previous) || ended.contains(next)
    }
}
