import Contracts
import Hummingbird
import ServiceHTTP

/// Problems only moderation raises; shared ones (validation, 401, 403, 404) come from `CommonError`.
enum ModerationError: ProblemError {
    /// Another moderator decided the case first.
    case caseClosed(CaseID)

    var problem: Problem {
        switch self {
        case .caseClosed(let id):
            Problem(
                .caseClosed, title: "Case already decided",
                detail: localized("Case \(id) was decided by another moderator; reload the queue."))
        }
    }
}
