public import Contracts
public import Hummingbird
import Prometheus

extension Router where Context == HuddleRequestContext {
    /// The router every service starts from: request ids and problem+json for every answer,
    /// request metrics, the internal credential on `/internal/...`, access-token verification,
    /// `/health` (`/health/live`, `/health/ready`) and `/metrics`.
    public static func huddle(
        module: ServiceModule, verifier: TokenVerifier, dependencies: ServiceDependencies,
        healthChecks: [String: StandardRoutes<HuddleRequestContext>.HealthCheck] = [:], readiness: Readiness = Readiness()
    ) -> Router<HuddleRequestContext> {
        let router = Router(context: HuddleRequestContext.self)
        router.addMiddleware {
            RequestIDMiddleware()
            RequestMetricsMiddleware()
            InternalCredentialMiddleware<HuddleRequestContext>(token: dependencies.internalToken)
            AccessTokenMiddleware(verifier: verifier)
        }
        StandardRoutes<HuddleRequestContext>(
            module: module.rawValue, metrics: dependencies.metrics, checks: healthChecks, readiness: readiness
        ).add(to: router)
        return router
    }
}
