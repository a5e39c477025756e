import Foundation
public import Hummingbird
import Metrics
public import Prometheus

/// `/health`, `/health/live`, `/health/ready` and `/metrics`, the same on every service.
///
/// - `/health/live`: the process answers; it touches nothing else, so a database that is down never
///   makes an orchestrator restart a healthy instance (Kubernetes' liveness probe).
/// - `/health/ready` and `/health`: the dependencies in `checks` answer (the store is reachable and
///   migrated) and the instance is not shutting down (the readiness and startup probes; `/health` also
///   names each check).
public struct StandardRoutes<Context: RequestContext>: Sendable {
    public typealias HealthCheck = @Sendable () async -> Bool
    let module: String
    let metrics: PrometheusCollectorRegistry
    let checks: [String: HealthCheck]
    let readiness: Readiness

    /// `checks` name the dependencies that make this service unhealthy when they fail (its store).
    public init(module: String, metrics: PrometheusCollectorRegistry, checks: [String: HealthCheck] = [:], readiness: Readiness) {
        self.module = module
        self.metrics = metrics
        self.checks = checks
        self.readiness = readiness
    }

    /// The paths these routes answer, which no endpoint description names.
    public static var paths: Set<String> { ["/health", "/health/live", "/health/ready", "/metrics"] }

    public struct Health: Codable, Sendable {
        public var status: String
        public var module: String
        public var checks: [String: String]
    }

    public func add(to router: some RouterMethods<Context>) {
        addHealth(to: router)
        Self.addMetrics(metrics, to: router)
    }

    public func addHealth(to router: some RouterMethods<Context>) {
        let report: @Sendable () async -> (Health, HTTPResponse.Status) = { [checks, module, readiness] in
            var results: [String: String] = [:]
            for (name, check) in checks { results[name] = await check() ? "up" : "down" }
            results["shutdown"] = readiness.isDraining ? "begun" : "no"
            let ready = !readiness.isDraining && results.filter { $0.key != "shutdown" }.values.allSatisfy { $0 == "up" }
            return (Health(status: ready ? "ok" : "degraded", module: module, checks: results), ready ? .ok : .serviceUnavailable)
        }
        router.get("health") { _, _ in
            let (health, status) = await report()
            return JSONResponse(health, status: status)
        }
        router.get("health/ready") { _, _ in
            let (health, status) = await report()
            return JSONResponse(health, status: status)
        }
        router.get("health/live") { [module] _, _ in JSONResponse(Health(status: "ok", module: module, checks: [:])) }
    }

    /// `GET /metrics` in the Prometheus text format.
    public static func addMetrics(_ metrics: PrometheusCollectorRegistry, to router: some RouterMethods<Context>) {
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
        }
    }
}

/// swift-metrics can be bootstrapped once per process; every module of the process shares the registry.
public enum MetricsBootstrap {
    private static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    public static func registry() -> PrometheusCollectorRegistry { shared }
}
