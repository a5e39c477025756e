import Contracts
import ServiceKit

/// Problems only games raises; shared ones (validation, 401, 403, 404, 503) come from `CommonError`.
enum GamesError: ProblemError {
    case cancelled
    case alreadyStarted

    var problem: Problem {
        switch self {
        case .cancelled:
            Problem(title: "Game cancelled", status: 409, detail: "This game was cancelled.", code: "GAME_CANCELLED")
        case .alreadyStarted:
            Problem(
                title: "Game started", status: 409, detail: "This game has already started; its roster is closed.",
                code: "GAME_STARTED")
        }
    }
}
