import ArgumentParser
import Contracts
import Foundation

/// `huddle-bench balance`: what balancing costs and gives. Three gateways run side by side: in front
/// of one catalog instance; in front of two (each its own process, as deployed); and in front of the
/// first instance under two names, which costs the balancer's choice without a second process to
/// share the cores with. wrk drives `GET /v1/sports` through each in turn: the throughput ratio with
/// many connections and the latency ratios (p50, p99) with one, against the first, round after round
/// so the machine's noise shows as the spread. On two cores the instances, the gateways and wrk share
/// what there is.
struct BalanceBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance", abstract: "The gateway in front of two instances of a module against one.")

    @Option(help: "Seconds per measurement.") var seconds = 8
    @Option(help: "Connections for the throughput runs.") var connections = 32
    @Option(help: "Rounds, alternating the two gateways.") var rounds = 3
    @Option(help: "wrk (apt install wrk).") var wrk = "/usr/bin/wrk"

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("balance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        var processes: [ChildProcess] = []
        defer { processes.forEach { $0.stop() } }
        let instances = ["http://127.0.0.1:28111", "http://127.0.0.1:28112"]
        for (index, url) in instances.enumerated() {
            processes.append(
                try .module(
                    "catalog",
                    environment: [
                        "CATALOG_HTTP_PORT": String(28111 + index), "CATALOG_DB_URL": "sqlite:\(data.path)/catalog-\(index).sqlite",
                    ].merging(AbsentModules.addresses(besides: [.catalog]).environmentVariables) { given, _ in given }))
            try await ChildProcess.waitForHealth(url)
        }
        let gateways = [
            ("one instance", 28120, instances[0]), ("two instances", 28130, instances.joined(separator: ",")),
            ("one instance, two names", 28140, "\(instances[0]),http://localhost:28111"),
        ]
        for (_, port, upstream) in gateways {
            processes.append(
                try .module(
                    "gateway",
                    environment: [
                        "GATEWAY_HTTP_PORT": String(port), "GATEWAY_OPS_HTTP_PORT": String(port + 1), "CATALOG_URL": upstream,
                        "GATEWAY_MODULES": "catalog", "GATEWAY_RATELIMIT_RATE": "100000000",
                        "GATEWAY_RATELIMIT_BURST": "100000000", "GATEWAY_EVENT_LOOPS": "1",
                        // The instances as listed: resolving `localhost` would make the two names one.
                        "GATEWAY_UPSTREAM_RESOLVE_MS": "0",
                    ]))
            try await ChildProcess.waitForHealth("http://127.0.0.1:\(port + 1)")
        }

        print("balance: GET /v1/sports through a gateway in front of one catalog instance and of two, \(seconds) s per run")
        var ratios: [[(throughput: Double, p50: Double, p99: Double)]] = [[], []]
        for round in 1...rounds {
            var loaded: [WrkSummary] = [], single: [WrkSummary] = []
            for (_, port, _) in gateways {
                loaded.append(try await measure("http://127.0.0.1:\(port)/v1/sports", connections: connections))
                single.append(try await measure("http://127.0.0.1:\(port)/v1/sports", connections: 1))
            }
            let rate = loaded.map(\.rate)
            for (index, (name, _, _)) in gateways.enumerated() {
                print(
                    String(
                        format: "  round %d, %@: %8.0f requests/s at %d connections; p50 %.3f ms, p99 %.3f ms at one", round, name,
                        rate[index], connections, single[index].p50, single[index].p99))
            }
            for index in 1...2 {
                ratios[index - 1].append((rate[index] / rate[0], single[index].p50 / single[0].p50, single[index].p99 / single[0].p99))
            }
        }
        for (index, name) in ["two instances", "one instance under two names"].enumerated() {
            print("\(name) against one, over \(rounds) rounds:")
            print("  throughput ratio \(Spread(ratios[index].map(\.throughput)))")
            print("  p50 ratio \(Spread(ratios[index].map(\.p50))), p99 ratio \(Spread(ratios[index].map(\.p99)))")
        }
    }

    private func measure(_ url: String, connections: Int) async throws -> WrkSummary {
        try await WrkSummary.run(wrk, url, connections: connections, seconds: seconds)
    }
}
