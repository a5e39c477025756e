import Contracts
import ServiceHTTP

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
                .upstreamUnavailable,
                title: "Service unavailable", detail: localized("The \(module.rawValue) service is unavailable; try again shortly."))
        case .upstreamTimeout(let module):
            Problem(
                .upstreamTimeout,
                title: "Gateway timeout", detail: localized("The \(module.rawValue) service did not answer in time."))
        case .badUpstream(let module):
            Problem(
                .badUpstream,
                title: "Bad gateway", detail: localized("The \(module.rawValue) service failed while answering."))
        }
    }
}
