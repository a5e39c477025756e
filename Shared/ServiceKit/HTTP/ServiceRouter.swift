public import Hummingbird
import Prometheus

extension Router where Context == HuddleRequestContext {
    /// The router every service starts from: request ids and problem+json for every answer,
    /// request metrics, access-token verification, `/health` and `/metrics`.
    public static func huddle(
        module: ServiceModule, verifier: TokenVerifier, dependencies: ServiceDependencies,
        healthChecks: [String: StandardRoutes<HuddleRequestContext>.HealthCheck] = [:]
    ) -> Router<HuddleRequestContext> {
        let router = Router(context: HuddleRequestContext.self)
        router.addMiddleware {
            RequestIDMiddleware()
            RequestMetricsMiddleware()
            AccessTokenMiddleware(verifier: verifier)
        }
        StandardRoutes<HuddleRequestContext>(
            module: module.rawValue, metrics: dependencies.metrics, checks: healthChecks
        ).add(to: router)
        return router
    }
}

extension RouterMethods where Context == HuddleRequestContext {
    /// Routes under `/internal`, guarded by the internal credential.
    public func internalGroup(token: String) -> RouterGroup<HuddleRequestContext> {
        group("internal").add(middleware: InternalCredentialMiddleware<HuddleRequestContext>(token: token))
    }

    /// Routes that need a signed-in user.
    public func authenticated(_ path: RouterPath = "") -> RouterGroup<AuthenticatedContext> {
        group(path, context: AuthenticatedContext.self)
    }
}
