import Contracts
import ServiceHTTP

/// Problems only catalog raises; shared ones (validation, 401, 403, 404, 503) come from `CommonError`.
enum CatalogError: ProblemError {
    case weatherUnavailable
    case managerCannotLeave
    case sportMismatch(team: Sport, league: Sport)
    case noHolePositions(hole: Int)

    var problem: Problem {
        switch self {
        case .weatherUnavailable:
            Problem(
                .weatherUnavailable,
                title: "Weather unavailable", detail: localized("The weather provider did not answer; try again shortly."))
        case .managerCannotLeave:
            Problem(
                .managerCannotLeave,
                title: "Manager cannot leave", detail: localized("The manager cannot leave the team; delete the team instead."))
        case .noHolePositions(let hole):
            Problem(
                .noHolePositions, title: "Hole not surveyed",
                detail: localized("Hole \(hole) has no surveyed tee and basket yet, so there is nothing to navigate to."))
        case .sportMismatch(let team, let league):
            Problem(
                .sportMismatch,
                title: "Wrong sport", detail: localized("A \(team.rawValue) team cannot play in a \(league.rawValue) league."),
                errors: [.invalid("teamId", "plays \(team.rawValue), not \(league.rawValue)")])
        }
    }
}
