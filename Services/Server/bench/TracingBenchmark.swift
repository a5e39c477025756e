import ArgumentParser
import Configuration
import Contracts
import Foundation
import Logging
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench tracing`: what tracing costs. Two loads through the gateway, each from wrk:
/// `GET /v1/users/me` (the gateway and auth) and ticket placement (the gateway and betting's ledger
/// transaction), with tracing off, keeping one trace in ten (`parentbased_traceidratio` 0.1) and
/// keeping every trace. Each setting runs a `huddle` of its own (gateway, auth, betting: tracing is
/// set once per process), exporting OTLP/HTTP protobuf to a collector in this process that throws
/// the spans away (`DiscardingCollector`: the services' cost, as with a collector on another machine)
/// or, with `--collector stand-in`, to the stand-in's, which parses OTLP JSON on the same two cores.
/// The settings take turns, `--rounds` times, each round starting at the next one, and the medians
/// are compared with tracing off.
struct TracingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tracing", abstract: "Throughput with tracing off, at 10 % and at 100 %.")

    @Option(help: "Seconds of each load in each round.") var seconds = 10
    @Option(help: "Connections for GET /v1/users/me.") var connections = 32
    @Option(help: "Connections placing tickets.") var ticketClients = 16
    @Option(help: "Rounds; each runs every setting once.") var rounds = 3
    @Option(help: "wrk (apt install wrk).") var wrk = "/usr/bin/wrk"
    @Option(help: "elsewhere (a collector that discards what it is sent) or stand-in (the stand-in's, OTLP JSON, parsed here).")
    var collector = "elsewhere"

    struct Setting {
        let name: String
        let environment: [String: String]
    }

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let standIn = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "1000000"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: logger, onListening: $0) }) { standInURL in
            try await DiscardingCollector.with { collectorURL, received in
                try await measureAll(standInURL: standInURL, collectorURL: collectorURL, logger: logger)
                let (exports, bytes) = received()
                if collector != "stand-in" { print("  the collector was sent \(exports) exports, \(bytes / 1024) KiB") }
            }
        }
    }

    private func measureAll(standInURL: String, collectorURL: String, logger: Logger) async throws {
        do {
            let traced =
                collector == "stand-in"
                ? ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "\(standInURL)/v1/traces", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"]
                : [
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "\(collectorURL)/v1/traces",
                    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
                ]
            let settings = [
                Setting(name: "off", environment: [:]),
                Setting(
                    name: "10 %",
                    environment: traced.merging(["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.1"]) {
                        $1
                    }),
                Setting(name: "100 %", environment: traced.merging(["OTEL_TRACES_SAMPLER": "parentbased_always_on"]) { $1 }),
            ]
            print(
                "tracing: through the gateway, GET /v1/users/me at \(connections) connections and tickets at \(ticketClients), "
                    + "\(seconds) s each, \(rounds) rounds, exporting to \(collector == "stand-in" ? "the stand-in" : "a collector elsewhere")"
            )
            var results: [String: (reads: [Double], tickets: [Double])] = [:]
            for round in 1...rounds {
                // Each round starts at the next setting, so none always runs first or after the heaviest.
                let offset = (round - 1) % settings.count
                for setting in settings[offset...] + settings[..<offset] {
                    let (reads, tickets) = try await measure(setting, feed: standInURL, logger: logger)
                    results[setting.name, default: ([], [])].reads.append(reads)
                    results[setting.name, default: ([], [])].tickets.append(tickets)
                    print(
                        String(format: "  round %d, %-5@: %8.1f reads/s  %7.1f tickets/s", round, setting.name as NSString, reads, tickets))
                }
            }
            func median(_ values: [Double]) -> Double { Spread(values).median }
            let baseline = results["off"].map { (median($0.reads), median($0.tickets)) } ?? (1, 1)
            for setting in settings {
                guard let measured = results[setting.name] else { continue }
                let (reads, tickets) = (median(measured.reads), median(measured.tickets))
                print(
                    String(
                        format:
                            "  %-5@ medians: %8.1f reads/s (%.3f of off)  %7.1f tickets/s (%.3f of off)  spread: reads %.0f–%.0f, tickets %.0f–%.0f",
                        setting.name as NSString, reads, reads / baseline.0, tickets, tickets / baseline.1, measured.reads.min() ?? 0,
                        measured.reads.max() ?? 0, measured.tickets.min() ?? 0, measured.tickets.max() ?? 0))
            }
        }
    }

    /// One setting's `huddle`, and both loads against it.
    private func measure(_ setting: Setting, feed: String, logger: Logger) async throws -> (reads: Double, tickets: Double) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tracing-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ChildProcess.huddle(
            ["--modules", "gateway,auth,betting"],
            settings: [
                "auth.bcrypt.cost=4", "gateway.http.port=28080", "gateway.ops.http.port=29180",
                "auth.http.port=28081", "betting.http.port=28085", "auth.url=http://127.0.0.1:28081", "betting.url=http://127.0.0.1:28085",
                "auth.db.url=sqlite:\(data.path)/auth.sqlite",
                "betting.db.url=sqlite:\(data.path)/betting.sqlite", "betting.odds.provider.url=\(feed)",
                "betting.odds.provider.key=huddle-dev-football-key", "betting.odds.poll.ms=100", "betting.wallet.grant=1000000000000",
                "betting.stake.max=100000", "gateway.ratelimit.rate=1000000", "gateway.ratelimit.burst=1000000",
            ],
            data: data, environment: setting.environment)
        defer { server.stop() }
        let gateway = "http://127.0.0.1:28080"
        try await ChildProcess.waitForHealth(gateway)
        // Tickets first, while the fixtures' odds are the ones just read (the feed moves them on).
        let picks = try await TicketsBenchmark.fixtures(
            betting: TestClient(baseURL: "http://127.0.0.1:28085"), feed: FootballControlClient(baseURL: feed))
        let users = try await (0..<max(ticketClients, 1)).asyncMap { index in
            try await TestClient(baseURL: gateway).register(name: "Traced \(index)")
        }
        let bodies = try (0..<picks.count).map { number in
            String(
                decoding: try HuddleJSON.encoder.encode(
                    PlaceTicket(stake: 100, selections: [picks[number], picks[(number + 1) % picks.count]])),
                as: UTF8.self)
        }
        let script = data.appendingPathComponent("tickets.lua")
        try TicketsBenchmark.wrkScript(
            tokens: users.map(\.accessToken), threads: TicketsBenchmark.threads(ticketClients), bodies: bodies,
            keyPrefix: "trace-\(UUID().uuidString.prefix(8))"
        ).write(to: script, atomically: true, encoding: .utf8)
        let tickets = try await load(
            [
                "-t", String(TicketsBenchmark.threads(ticketClients)), "-c", String(ticketClients), "-d", "\(seconds)s", "--latency", "-s",
                script.path,
            ],
            url: gateway)
        let reads = try await load(
            [
                "-t", "2", "-c", String(connections), "-d", "\(seconds)s", "--latency", "-H",
                "Authorization: Bearer \(users[0].accessToken)",
            ],
            url: gateway + AuthAPI.me.path())
        return (reads, tickets)
    }

    /// Answers per second that were not refused.
    private func load(_ arguments: [String], url: String) async throws -> Double {
        try await WrkSummary.run(wrk, arguments + ["--timeout", "30s", url]).rate
    }
}
