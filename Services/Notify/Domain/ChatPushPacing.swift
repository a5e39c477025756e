import Contracts
import Foundation

/// How a room's messages are paced to one player: at most one push per `quiet` interval. The first
/// message of a burst is pushed at once; the next, within the interval, is held back as a push due
/// when the interval ends, and the later ones fold into that one ("+N more", showing the latest), so
/// ten messages in ten seconds reach a closed app as two pushes. A message naming the player is
/// pushed at once, whatever the pace. Pure: a player's window and the time in, a decision out.
struct ChatPushPacing: Equatable, Sendable {
    var quiet: TimeInterval

    /// A player's pace in a room.
    struct Window: Equatable, Sendable {
        /// When the next push may go.
        var nextAt: Date
        /// The push held back for the end of the interval, while it has not gone (its due time).
        var pending: NotificationID?
        var pendingDue: Date?
        /// How many messages that push tells of besides the latest.
        var folded: Int
    }

    enum Decision: Equatable, Sendable {
        case pushNow
        /// Held back, as a push due at this time.
        case hold(until: Date)
        /// Told by the push held back, which now shows this message and `more` others.
        case fold(into: NotificationID, more: Int)
    }

    /// The decision for a message at `now`, and the player's window after it (a push held back gets
    /// its id once written: `Window.pending`).
    func next(_ window: Window?, at now: Date, mentioned: Bool) -> (Decision, Window) {
        guard var window, now < window.nextAt else {
            return (.pushNow, Window(nextAt: now.addingTimeInterval(quiet), pending: nil, pendingDue: nil, folded: 0))
        }
        if mentioned {
            return (.pushNow, window)
        }
        if let pending = window.pending, let due = window.pendingDue, due > now {
            window.folded += 1
            return (.fold(into: pending, more: window.folded), window)
        }
        let due = window.nextAt
        return (
            .hold(until: due), Window(nextAt: due.addingTimeInterval(quiet), pending: nil, pendingDue: due, folded: 0)
        )
    }
}
