import Contracts
import Foundation

/// How a room's messages are paced: at most one push of them per `quiet` interval. The first message
/// of a burst is pushed at once; the next, within the interval, is held for its end, in the room's
/// batch due then, and the later ones fold into that batch, which goes once, telling of the latest
/// with "+N more": ten messages in ten seconds reach a closed app as two pushes. (A message naming
/// players is pushed to them at once besides, whatever the pace: `ChatPushes`.) Pure: the room's
/// window and the time in, a decision out.
struct ChatPushPacing: Equatable, Sendable {
    var quiet: TimeInterval

    /// A room's pace.
    struct Window: Equatable, Sendable {
        /// When the next push may go.
        var nextAt: Date
        /// When the room's held batch goes, while it has not.
        var heldUntil: Date?
    }

    enum Decision: Equatable, Sendable {
        case pushNow
        /// Into the room's batch due at this time: a new batch, or one more message for the one held (`new` false).
        case hold(until: Date, new: Bool)
    }

    /// The decision for a message at `now`, and the room's window after it.
    func next(_ window: Window?, at now: Date) -> (Decision, Window) {
        guard let window, now < window.nextAt else {
            return (.pushNow, Window(nextAt: now.addingTimeInterval(quiet), heldUntil: nil))
        }
        if let held = window.heldUntil, held > now { return (.hold(until: held, new: false), window) }
        let due = window.nextAt
        return (.hold(until: due, new: true), Window(nextAt: due.addingTimeInterval(quiet), heldUntil: due))
    }
}
