public import Contracts
import HuddleEffects
public import Hummingbird
import Prometheus
public import Tracing

extension Router where Context == HuddleRequestContext {
    /// The router every service starts from: request ids and problem+json for every answer,
    /// request metrics, the calling module's credential on `/internal/...`, access-token verification,
    /// `/health` (`/health/live`, `/health/ready`) and `/metrics`.
    public static func huddle(
        module: ServiceModule, verifier: TokenVerifier, dependencies: ServiceDependencies,
        healthChecks: [String: StandardRoutes<HuddleRequestContext>.HealthCheck] = [:], readiness: Readiness = Readiness()
    ) -> Router<HuddleRequestContext> {
        let router = Router(context: HuddleRequestContext.self)
        router.addMiddleware {
            // Outermost, so the request id, the problem and every log line of the request are inside its span.
            ServerSpanMiddleware<HuddleRequestContext>(module: module)
            RequestIDMiddleware()
            RequestMetricsMiddleware()
            InternalCallerMiddleware(
                verifier: InternalCallVerifier(
                    module: module, publicKeys: dependencies.internalKeys.publicKeys, now: dependencies.effects.now))
            AccessTokenMiddleware(verifier: verifier)
        }
        StandardRoutes<HuddleRequestContext>(
            module: module.rawValue, metrics: dependencies.metrics, checks: healthChecks, readiness: readiness
        ).add(to: router)
        return router
    }
}

extension SpanAttributes {
    /// Which module made a span: in `huddle`, one process and one service name, every module's spans.
    public static func module(_ module: ServiceModule) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["huddle.module"] = module.rawValue
        return attributes
    }
}
