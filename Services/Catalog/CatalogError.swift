import Contracts
import ServiceKit

/// Problems only catalog raises; shared ones (validation, 401, 403, 404, 503) come from `CommonError`.
enum CatalogError: ProblemError {
    case weatherUnavailable
    case managerCannotLeave
    case sportMismatch(team: Sport, league: Sport)

    var problem: Problem {
        switch self {
        case .weatherUnavailable:
            Problem(
                title: "Weather unavailable", status: 503, detail: "The weather provider did not answer; try again shortly.",
                code: "WEATHER_UNAVAILABLE")
        case .managerCannotLeave:
            Problem(
                title: "Manager cannot leave", status: 409,
                detail: "The manager cannot leave the team; delete the team instead.", code: "MANAGER_CANNOT_LEAVE")
        case .sportMismatch(let team, let league):
            Problem(
                title: "Wrong sport", status: 422, detail: "A \(team.rawValue) team cannot play in a \(league.rawValue) league.",
                code: "SPORT_MISMATCH", errors: [.init(field: "teamId", message: "plays \(team.rawValue), not \(league.rawValue)")])
        }
    }
}
