import ArgumentParser
import Contracts
import Foundation
import ServiceKitTesting

/// `huddle-bench gateway`: the gateway beside nginx, in front of the same module. auth runs as its own
/// executable; the gateway (its own executable, one event loop) and Debian's nginx (one worker, a
/// reverse proxy keeping its upstream connections alive) both sit in front of it. wrk drives the same
/// authenticated route, `GET /v1/users/me`, directly on auth, through the gateway and through nginx, in
/// turn, round after round, so the machine's drift falls on all three alike. It prints throughput at
/// `--connections` and the latency each proxy adds to the p50 at one connection, and their ratios,
/// and the CPU each proxy's process takes a request at one connection (kernel included), which the
/// added latency follows.
struct GatewayBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gateway", abstract: "The gateway against nginx in front of auth.")

    @Option(help: "Seconds per measurement.") var seconds = 10
    @Option(help: "Connections for the throughput runs.") var connections = 32
    @Option(help: "Rounds; each measures auth directly, the gateway and nginx.") var rounds = 3
    @Option(help: "Event loops of the gateway.") var eventLoops = 1
    @Option(help: "wrk (apt install wrk).") var wrk = "/usr/bin/wrk"
    @Option(help: "nginx (apt install nginx-light).") var nginx = "/usr/sbin/nginx"

    static let paths = ["direct", "gateway", "nginx"]

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let (authPort, gatewayPort, nginxPort) = (28311, 28300, 28320)
        var processes: [ChildProcess] = []
        defer { processes.forEach { $0.stop() } }
        processes.append(
            try .module(
                "auth",
                environment: [
                    "AUTH_HTTP_PORT": String(authPort), "AUTH_DB_URL": "sqlite:\(data.path)/auth.sqlite",
                    "AUTH_BCRYPT_COST": "4",
                ].merging(AbsentModules.addresses(besides: [.auth]).environmentVariables) { given, _ in given }))
        try await ChildProcess.waitForHealth("http://127.0.0.1:\(authPort)")
        processes.append(
            try .module(
                "gateway",
                environment: [
                    "GATEWAY_HTTP_PORT": String(gatewayPort), "GATEWAY_OPS_HTTP_PORT": String(gatewayPort + 1),
                    "AUTH_URL": "http://127.0.0.1:\(authPort)", "GATEWAY_MODULES": "auth",
                    "GATEWAY_RATELIMIT_RATE": "100000000", "GATEWAY_RATELIMIT_BURST": "100000000",
                    "GATEWAY_EVENT_LOOPS": String(eventLoops),
                ]))
        try await ChildProcess.waitForHealth("http://127.0.0.1:\(gatewayPort + 1)")
        processes.append(try Self.startNginx(nginx, port: nginxPort, upstreamPort: authPort, directory: data))
        try await ChildProcess.waitForHealth("http://127.0.0.1:\(nginxPort)")
        // Whose CPU a request is read at one connection: none for auth alone, the gateway's process,
        // nginx's master and worker.
        let proxies: [ChildProcess?] = [nil, processes[1], processes[2]]

        let token = try await TestClient(baseURL: "http://127.0.0.1:\(gatewayPort)").register(name: "Bench").accessToken
        let urls = [authPort, gatewayPort, nginxPort].map { "http://127.0.0.1:\($0)/v1/users/me" }
        print(
            "gateway: GET /v1/users/me on auth directly, through the gateway (\(eventLoops) event loop) and through nginx (one worker), \(seconds) s per run"
        )
        _ = try await measure(urls[1], token: token, connections: connections)
        var loaded: [[WrkSummary]] = [], single: [[WrkSummary]] = [], cpu: [[Double]] = []
        for round in 1...rounds {
            var many: [WrkSummary] = [], ones: [(summary: WrkSummary, cpuPerRequest: Double)] = []
            for url in urls { many.append(try await measure(url, token: token, connections: connections)) }
            for (url, proxy) in zip(urls, proxies) {
                ones.append(try await measureCPU(of: proxy) { try await measure(url, token: token, connections: 1) })
            }
            loaded.append(many)
            single.append(ones.map(\.summary))
            cpu.append(ones.map(\.cpuPerRequest))
            for (index, path) in Self.paths.enumerated() {
                let (many, one) = (loaded[round - 1][index], single[round - 1][index])
                let cpuNote =
                    String(format: " (%.0f/s", one.rate)
                    + (index == 0 ? ")" : String(format: ", CPU %.0f µs a request)", cpu[round - 1][index] * 1e6))
                print(
                    String(
                        format: "  round %d, %-7@ %8.0f requests/s at %d connections (p50 %.2f ms); p50 %.3f ms, p99 %.3f ms at one", round,
                        path, many.rate, connections, many.p50, one.p50, one.p99) + cpuNote)
            }
        }
        let figures = GatewayFigures(loaded: loaded, single: single)
        print("over \(rounds) rounds (median, and spread of the rounds):")
        print("  throughput at \(connections) connections, gateway against nginx: \(figures.throughputRatio) (target ≥ 0.9)")
        print("  added p50 at one connection: gateway \(figures.gatewayAdded), nginx \(figures.nginxAdded)")
        print("  the gateway's added p50 against nginx's: \(figures.addedRatio) (target ≤ 1.5)")
        print(
            "  CPU a request at one connection, kernel included: gateway \(Spread(cpu.map { $0[1] * 1e6 }, unit: " µs", digits: 0)), "
                + "nginx \(Spread(cpu.map { $0[2] * 1e6 }, unit: " µs", digits: 0))")
    }

    /// `run`'s summary, and the CPU `proxy`'s process (with its children) took per request during it.
    private func measureCPU(of proxy: ChildProcess?, _ run: () async throws -> WrkSummary) async rethrows -> (
        summary: WrkSummary, cpuPerRequest: Double
    ) {
        let before = proxy?.cpuSecondsWithChildren() ?? 0
        let summary = try await run()
        let spent = (proxy?.cpuSecondsWithChildren() ?? 0) - before
        return (summary, spent / Double(max(1, summary.requests)))
    }

    private func measure(_ url: String, token: String, connections: Int) async throws -> WrkSummary {
        let summary = try await WrkSummary.run(
            wrk, url, connections: connections, seconds: seconds, headers: ["Authorization: Bearer \(token)"])
        guard summary.refused == 0 else { throw ValidationError("\(summary.refused) answers to \(url) were refused") }
        return summary
    }

    /// nginx as an operator would put it in front of a module: one worker, HTTP/1.1 to the upstream
    /// with its connections kept alive, no access log.
    static func startNginx(_ binary: String, port: Int, upstreamPort: Int, directory: URL) throws -> ChildProcess {
        let configuration = """
            \(getuid() == 0 ? "user root;" : "")
            worker_processes 1;
            daemon off;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/nginx-error.log warn;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(directory.path)/nginx-body;
                proxy_temp_path \(directory.path)/nginx-proxy;
                fastcgi_temp_path \(directory.path)/nginx-fastcgi;
                uwsgi_temp_path \(directory.path)/nginx-uwsgi;
                scgi_temp_path \(directory.path)/nginx-scgi;
                upstream auth { server 127.0.0.1:\(upstreamPort); keepalive 64; }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://auth;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                        proxy_set_header Host $host;
                    }
                }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        return try ChildProcess.program(
            URL(fileURLWithPath: binary), ["-p", directory.path, "-c", file.path, "-e", "\(directory.path)/nginx-error.log"])
    }
}

/// The gateway's figures from rounds of (direct, gateway, nginx) measurements: each ratio is taken
/// within a round, then the median and spread over rounds.
struct GatewayFigures {
    let loaded: [[WrkSummary]]
    let single: [[WrkSummary]]

    var throughputRatio: Spread { Spread(loaded.map { $0[1].rate / $0[2].rate }) }
    var gatewayAdded: Spread { Spread(single.map { $0[1].p50 - $0[0].p50 }, unit: " ms", digits: 3) }
    var nginxAdded: Spread { Spread(single.map { $0[2].p50 - $0[0].p50 }, unit: " ms", digits: 3) }
    var addedRatio: Spread { Spread(single.map { ($0[1].p50 - $0[0].p50) / ($0[2].p50 - $0[0].p50) }) }
}
