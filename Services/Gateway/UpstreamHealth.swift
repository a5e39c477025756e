import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceHTTP

/// The gateway's health: its own state and each module's, asked concurrently with a short
/// timeout so one slow module cannot make the health check itself hang. The public `/health` says
/// only `status`; the operations listener's says which module is down.
struct UpstreamHealth: Sendable {
    let modules: [ServiceModule]
    let directory: ServiceDirectory
    let client: UpstreamClient
    let timeout: Duration

    struct Report: Codable, Sendable {
        /// `ok` or `degraded`.
        var status: String
        /// Per module: `up`, `degraded`, `down` or `unknown`.
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

    /// `up` when every instance answers its health, `down` when none does, `degraded` otherwise.
    private func state(of module: ServiceModule) async -> String {
        let instances = directory.instances(of: module)
        guard !instances.isEmpty else { return "unknown" }
        var states: Set<String> = []
        for base in instances { states.insert(await state(of: base)) }
        if states.count == 1, let only = states.first { return only }
        return "degraded"
    }

    private func state(of base: String) async -> String {
        do {
            let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/health")
            let response = try await client.send(
                request, body: nil, to: base, deadline: .now() + TimeAmount(timeout), on: client.loopForCaller()
            ).get()
            if case .stream(let body) = response.body { for try await _ in body {} }
            return response.head.status == .ok ? "up" : "degraded"
        } catch {
            return "down"
        }
    }
}
