import Contracts
import ServiceKit

/// What the gateway itself answers when it cannot pass a request on.
enum GatewayError: ProblemError {
    case noRoute
    case upstreamUnavailable(ServiceModule)
    case upstreamTimeout(ServiceModule)
    case badUpstream(ServiceModule)

    var problem: Problem {
        switch self {
        case .noRoute:
            CommonError.noSuchRoute.problem
        case .upstreamUnavailable(let module):
            Problem(
                title: "Service unavailable", status: 503, detail: "The \(module.rawValue) service is unavailable; try again shortly.",
                code: "UPSTREAM_UNAVAILABLE")
        case .upstreamTimeout(let module):
            Problem(
                title: "Gateway timeout", status: 504, detail: "The \(module.rawValue) service did not answer in time.",
                code: "UPSTREAM_TIMEOUT")
        case .badUpstream(let module):
            Problem(
                title: "Bad gateway", status: 502, detail: "The \(module.rawValue) service failed while answering.",
                code: "BAD_UPSTREAM")
        }
    }
}
