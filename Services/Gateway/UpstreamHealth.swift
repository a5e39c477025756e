import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit

/// `GET /health` of the gateway: its own state and each module's, asked concurrently with a short
/// timeout so one slow module cannot make the health check itself hang.
struct UpstreamHealth: Sendable {
    let modules: [ServiceModule]
    let directory: ServiceDirectory
    let client: HTTPClient

    struct Report: Codable, Sendable {
        var status: String
        var upstreams: [String: String]
    }

    func report() async -> Report {
        let states = await withTaskGroup(of: (ServiceModule, String).self) { group in
            for module in modules {
                group.addTask { (module, await state(of: module)) }
            }
            var states: [String: String] = [:]
            for await (module, state) in group { states[module.rawValue] = state }
            return states
        }
        return Report(status: states.values.allSatisfy { $0 == "up" } ? "ok" : "degraded", upstreams: states)
    }

    private func state(of module: ServiceModule) async -> String {
        guard let base = directory.url(of: module) else { return "unknown" }
        do {
            let response = try await client.execute(HTTPClientRequest(url: base + "/health"), timeout: .seconds(1))
            return response.status.code == 200 ? "up" : "degraded"
        } catch {
            return "down"
        }
    }
}
