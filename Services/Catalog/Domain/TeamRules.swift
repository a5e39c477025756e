import Contracts
import ServiceHTTP

/// Who may see and join a team, decided from its privacy and the caller's standing alone.
enum TeamRules {
    /// Private teams exist only for the people who stand with them (invited included).
    static func canSee(_ privacy: Privacy, standing: Membership?) -> Bool {
        privacy != .private || standing != nil
    }

    enum JoinOutcome: Equatable {
        /// Already on the team (or already asked): nothing changes.
        case unchanged(Membership)
        case becomes(Membership)
        case refused
    }

    /// public → member at once; protected → a request the manager decides; private → only with an
    /// invitation. An invitation is the manager's yes, so it lets anyone in.
    static func join(_ privacy: Privacy, standing: Membership?) -> JoinOutcome {
        switch (standing, privacy) {
        case (.manager, _): .unchanged(.manager)
        case (.player, _): .unchanged(.player)
        case (.invited, _): .becomes(.player)
        case (.pending, .public): .becomes(.player)
        case (.pending, _): .unchanged(.pending)
        case (nil, .public): .becomes(.player)
        case (nil, .protected): .becomes(.pending)
        case (nil, .private): .refused
        }
    }

    enum RemovalOutcome: Equatable {
        case remove
        case refused(ProblemText)
        /// A team always has a manager; they delete it instead.
        case managerCannotLeave
        case hidden
    }

    /// A manager removes anyone but themselves; anyone else may only take themselves off
    /// (leave, withdraw a request, turn down an invitation).
    static func remove(_ target: UserID, by actor: UserID, actorStanding: Membership?, targetStanding: Membership?) -> RemovalOutcome {
        if actorStanding == .manager {
            if target == actor { return .managerCannotLeave }
            return targetStanding == nil ? .hidden : .remove
        }
        guard target == actor else { return .refused("Only the team's manager removes other members.") }
        return targetStanding == nil ? .hidden : .remove
    }
}
