import Contracts
import Foundation

/// How a room's messages are paced to one player: at most one push per `quiet` interval. The first
/// message of a burst is pushed at once; the next, within the interval, is held for its end, in the
/// room's batch due then, and the later ones fold into that batch, which goes once, telling of the
/// latest with "+N more": ten messages in ten seconds reach a closed app as two pushes. A message
/// naming the player is pushed at once, whatever the pace. Pure: a player's window and the time in,
/// a decision out.
struct ChatPushPacing: Equatable, Sendable {
    var quiet: TimeInterval

    /// A player's pace in a room.
    struct Window: Equatable, Sendable {
        /// When the next push may go.
        var nextAt: Date
        /// When the room's batch holding a push for the player goes, while it has not.
        var heldUntil: Date?
    }

    enum Decision: Equatable, Sendable {
        case pushNow
        /// Into the room's batch due at this time: a new push for the player, or one more message for
        /// a push it already holds (`held` false).
        case hold(until: Date, new: Bool)
    }

    /// The decision for a message at `now`, and the player's window after it.
    func next(_ window: Window?, at now: Date, mentioned: Bool) -> (Decision, Window) {
        guard let window, now < window.nextAt else {
            return (.pushNow, Window(nextAt: now.addingTimeInterval(quiet), heldUntil: nil))
        }
        if mentioned { return (.pushNow, window) }
        if let held = window.heldUntil, held > now { return (.hold(until: held, new: false), window) }
        let due = window.nextAt
        return (.hold(until: due, new: true), Window(nextAt: due.addingTimeInterval(quiet), heldUntil: due))
    }
}
