import Contracts
import ServiceHTTP

/// Who may take which place on a game's roster, decided from the game and the person's current
/// place alone. The domain applies the outcome under the game's lock.
enum RosterRules {
    enum Outcome: Equatable {
        case unchanged(RosterStatus)
        case becomes(RosterStatus, substitute: Bool)
        /// Off the roster altogether (a withdrawn request).
        case leaves
        case refused(ProblemText)
    }

    /// Someone who wants to play gets a slot when one is free, else the end of the waiting list.
    static func seat(hasFreeSlot: Bool) -> RosterStatus { hasFreeSlot ? .going : .waitlisted }

    /// `POST /join`. While the organiser asks for substitutes, anyone who can see a public or protected
    /// game comes in as one without waiting for approval: the call for substitutes is that approval.
    /// A private game's organiser approves each substitute, who knows nothing of the game until then.
    static func join(privacy: Privacy, current: RosterStatus?, subsNeeded: Int, hasFreeSlot: Bool) -> Outcome {
        guard let current else {
            if subsNeeded > 0, privacy == .private { return .becomes(.pending, substitute: true) }
            if subsNeeded > 0, hasFreeSlot { return .becomes(.going, substitute: true) }
            switch privacy {
            case .public: return .becomes(seat(hasFreeSlot: hasFreeSlot), substitute: false)
            case .protected: return .becomes(.pending, substitute: false)
            case .private: return .refused("This game is private: you can join only when its organiser invites you.")
            }
        }
        switch current {
        case .going, .pending, .waitlisted:
            return .unchanged(current)
        case .invited, .maybe, .notGoing:
            return .becomes(seat(hasFreeSlot: hasFreeSlot), substitute: false)
        }
    }

    /// `PUT /status`: a player's own answer. `going` may land on the waiting list; a pending
    /// request can only be withdrawn (`notGoing`) until the organiser decides.
    static func answer(_ wanted: RosterStatus, current: RosterStatus?, hasFreeSlot: Bool) -> Outcome {
        guard RosterStatus.answers.contains(wanted) else {
            return .refused("A player answers only going, maybe or notGoing.")
        }
        guard let current else { return .refused("You are not on this game's roster: join it first.") }
        switch (current, wanted) {
        case (.pending, .notGoing):
            return .leaves
        case (.pending, _):
            return .refused("Your request to join waits for the organiser's approval.")
        case (.going, .going), (.waitlisted, .going):
            return .unchanged(current)
        case (_, .going):
            return .becomes(seat(hasFreeSlot: hasFreeSlot), substitute: false)
        case (_, let wanted) where current == wanted:
            return .unchanged(current)
        default:
            return .becomes(wanted, substitute: false)
        }
    }

    /// How many of the waiting list move up: as many as there are free slots.
    static func promotions(capacity: Int?, going: Int, waiting: Int) -> Int {
        guard let capacity else { return waiting }
        return max(0, min(waiting, capacity - going))
    }

    /// Where someone who wants to play lands in `game` as it stands.
    static func seat(in game: Game) -> RosterStatus { seat(hasFreeSlot: hasFreeSlot(capacity: game.capacity, going: game.goingCount)) }

    static func hasFreeSlot(capacity: Int?, going: Int) -> Bool {
        capacity.map { going < $0 } ?? true
    }
}
