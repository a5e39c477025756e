import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// Problems only chat raises; shared ones (validation, 401, 404) come from `CommonError`.
enum ChatError: ProblemError {
    case floodLimited(retryAfterSeconds: Int, policy: RateLimitPolicy)
    case blocked
    case cannotMessageSelf

    var problem: Problem {
        switch self {
        case .floodLimited(let seconds, _):
            Problem(.floodLimited, title: "Too many messages", detail: localized("Slow down: the next message is taken in \(seconds) s."))
        case .blocked:
            Problem(.blocked, title: "Blocked", detail: localized("One of you blocked the other."))
        case .cannotMessageSelf:
            Problem(.cannotMessageSelf, title: "That is you", detail: localized("A direct room and a block need another player."))
        }
    }

    var headers: HTTPFields {
        guard case .floodLimited(let seconds, let policy) = self else { return [:] }
        return policy.refusal(retryAfter: seconds)
    }
}
