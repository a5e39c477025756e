import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import ServiceHTTP
import Testing

/// The probes an orchestrator asks: live while the process answers, ready while the store answers
/// and shutdown has not begun.
@Suite("Liveness and readiness")
struct ReadinessTests {
    @Test("liveness never asks the store; readiness fails while the store is down and from the moment shutdown begins")
    func probes() async throws {
        let storeUp = NIOLockedValueBox(true)
        let readiness = Readiness()
        let router = Router()
        StandardRoutes<BasicRequestContext>(
            module: "catalog", metrics: MetricsBootstrap.registry(), checks: ["database": { storeUp.withLockedValue { $0 } }],
            readiness: readiness
        ).add(to: router)
        try await Application(router: router).test(.router) { client in
            func status(_ path: String) async throws -> Int { try await client.execute(uri: path, method: .get).status.code }
            #expect(try await status("/health/live") == 200)
            #expect(try await status("/health/ready") == 200)
            #expect(try await status("/health") == 200)

            storeUp.withLockedValue { $0 = false }
            #expect(try await status("/health/live") == 200)
            #expect(try await status("/health/ready") == 503)
            storeUp.withLockedValue { $0 = true }
            #expect(try await status("/health/ready") == 200)

            readiness.beginDraining()
            #expect(try await status("/health/ready") == 503)
            #expect(try await status("/health/live") == 200)
            let body = try await client.execute(uri: "/health", method: .get).body
            #expect(String(buffer: body).contains(#""shutdown":"begun""#))
        }
    }
}
