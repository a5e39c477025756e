import Contracts
import Logging
import NIOCore
import ServiceHTTP

/// How the gateway sends one request to a module, whichever way it came (relayed, `ModuleRelay`, or
/// through the router, `ProxyMiddleware`): to an instance the balancer picks, and on to another when
/// one cannot be reached (the request never got there, so nothing happens twice). Fails with the
/// gateway's own problem (`GatewayError`), or with the attempt's error when it is not the module's
/// (a body found too large while it streamed).
struct ModuleCall: Sendable {
    let balancer: Balancer

    func send(
        to module: ServiceModule, on loop: any EventLoop, logger: @escaping @Sendable () -> Logger,
        _ attempt: @escaping @Sendable (_ base: String) -> EventLoopFuture<UpstreamResponse>
    ) -> EventLoopFuture<UpstreamResponse> {
        let balancer = balancer
        @Sendable func next(excluding tried: Set<String>) -> EventLoopFuture<UpstreamResponse> {
            guard tried.count < balancer.attempts(for: module), let base = balancer.take(module, excluding: tried) else {
                return loop.makeFailedFuture(GatewayError.upstreamUnavailable(module))
            }
            // One promise for both outcomes, where `map` then `flatMapError` made a future each.
            let answered = loop.makePromise(of: UpstreamResponse.self)
            attempt(base).whenComplete { result in
                switch result {
                case .success(let answer):
                    balancer.finished(module, base, reached: true)
                    answered.succeed(answer)
                case .failure(UpstreamFailure.unreachable):
                    balancer.finished(module, base, reached: false)
                    logger().warning("upstream \(module.rawValue) at \(base) unreachable")
                    answered.completeWith(next(excluding: tried.union([base])))
                case .failure(let error):
                    balancer.finished(module, base, reached: true)
                    answered.fail(Self.failure(error, module: module, logger: logger()))
                }
            }
            return answered.futureResult
        }
        return next(excluding: [])
    }

    /// What the client is answered when the exchange failed. (`logger` is made only for a line to write.)
    private static func failure(_ error: any Error, module: ServiceModule, logger: Logger) -> any Error {
        switch error {
        case UpstreamFailure.timedOut: return GatewayError.upstreamTimeout(module)
        case UpstreamFailure.closed, UpstreamFailure.stale: return GatewayError.badUpstream(module)
        case is GatewayError, is LimitedBody.TooLarge: return error
        default:
            logger.warning("upstream \(module.rawValue) unreachable: \(error)")
            return GatewayError.upstreamUnavailable(module)
        }
    }
}
