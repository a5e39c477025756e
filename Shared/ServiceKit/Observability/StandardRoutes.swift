import Foundation
public import Hummingbird
import Metrics
public import Prometheus
import SQLKit

/// `/health` and `/metrics`, the same on every service.
public struct StandardRoutes<Context: RequestContext>: Sendable {
    public typealias HealthCheck = @Sendable () async -> Bool
    let module: String
    let metrics: PrometheusCollectorRegistry
    let checks: [String: HealthCheck]

    /// `checks` name the dependencies that make this service unhealthy when they fail (its store).
    public init(module: String, metrics: PrometheusCollectorRegistry, checks: [String: HealthCheck] = [:]) {
        self.module = module
        self.metrics = metrics
        self.checks = checks
    }

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
        router.get("health") { _, _ in
            var results: [String: String] = [:]
            for (name, check) in checks { results[name] = await check() ? "up" : "down" }
            let healthy = results.values.allSatisfy { $0 == "up" }
            let health = Health(status: healthy ? "ok" : "degraded", module: module, checks: results)
            return JSONResponse(health, status: healthy ? .ok : .serviceUnavailable)
        }
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

extension Database {
    /// A health check: the schema is migrated (a replica that answers is ready for requests) and
    /// `SELECT 1` runs.
    public var healthCheck: @Sendable () async -> Bool {
        { [self] in
            guard isMigrated else { return false }
            return (try? await self.read { try await $0.raw("SELECT 1").run() }) != nil
        }
    }
}
