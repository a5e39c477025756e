import ArgumentParser
import AsyncHTTPClient
import Configuration
import Contracts
import Foundation
import HuddleEffects
import HuddleModules
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderStandIns
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore

/// `huddle-bench live-match`: many devices on one match's live socket while the provider's feed
/// changes once a second; measures ingestion-to-delivery latency at every device (from the
/// version's `updatedAt`, taken when games ingested it, to its arrival), with a tenth of the devices
/// first and then all of them. The modules run in a `huddle` of their own (auth, catalog and games),
/// the gateway in another and the devices here, on games' socket: a process may hold 20,000
/// descriptors on this machine, and 10,000 devices with games in one process needed twice that. With
/// `--instances 2` (PostgreSQL only) devices are split over two games instances sharing the database.
/// With `--through-gateway` the devices connect as phones do, through the gateway, which holds two
/// descriptors a device (its socket and its link to games): `--gateways 2` runs two, each a process
/// of its own, and spreads the devices over them, as replicas behind a load balancer take them, so
/// 10,000 fit here. Then conditional GETs of the match through the (first) gateway: the rate of 304s
/// against the rate of 200s.
struct LiveMatchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live-match", abstract: "Live match fan-out latency and 304 cost.")

    @Option(help: "Devices following the match.") var clients = 1000
    @Option(help: "Seconds of feed changes (one a second), with a tenth of the devices and then with all.") var seconds = 20
    @Option(help: "Games instances (2 needs --postgres).") var instances = 1
    @Option(help: "A PostgreSQL URL whose user may create databases; SQLite files when absent.") var postgres: String?
    @Option(help: "Seconds of each conditional-GET run (0 skips it).") var getSeconds = 10
    @Option(help: "Concurrent GET loops.") var concurrency = 16
    @Flag(help: "Devices connect through the gateway (one games instance).") var throughGateway = false
    @Option(help: "Gateway processes; with --through-gateway the devices are spread over them.") var gateways = 1

    typealias Device = BenchSocket<MatchChange>

    func run() async throws {
        guard instances == 1 || (instances == 2 && postgres != nil) else {
            throw ValidationError("--instances 2 needs --postgres: instances share the match through PostgreSQL")
        }
        guard !throughGateway || instances == 1 else { throw ValidationError("--through-gateway takes one games instance") }
        // Their ports step by ten from 28080 and 28180: ten would take the first's operations port.
        guard (1...9).contains(gateways) else { throw ValidationError("--gateways takes 1 to 9") }
        try await BenchStore.with(postgres: postgres, name: "live-match") { store in
            var logger = Logger(label: "bench")
            logger.logLevel = .error
            let standIn = ConfigReader(
                provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "100000"]))
            try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: logger, onListening: $0) }) { feedURL in
                var settings = [
                    "games.matches.provider.url=\(feedURL)",
                    "games.matches.provider.key=huddle-dev-football-key", "games.matches.poll.live.ms=100",
                    "games.matches.poll.day.ms=1000",
                    "gateway.ratelimit.rate=1000000", "gateway.ratelimit.burst=1000000",
                ]
                for (module, port) in [("auth", 28081), ("catalog", 28082), ("games", 28083)] {
                    settings += ["\(module).http.port=\(port)", "\(module).url=http://127.0.0.1:\(port)"]
                }
                let gamesStore = try await store.url("games")
                settings += [
                    "auth.db.url=\(try await store.url("auth"))", "catalog.db.url=\(try await store.url("catalog"))",
                    "games.db.url=\(gamesStore)",
                ]
                var processes = [
                    try ChildProcess.huddle(["--modules", "auth,catalog,games"], settings: settings, data: store.directory)
                ]
                defer { processes.forEach { $0.stop() } }
                try await ChildProcess.waitForHealth("http://127.0.0.1:28083")
                let gatewayProcesses = try (0..<gateways).map { index in
                    try ChildProcess.huddle(
                        ["--modules", "gateway"],
                        settings: settings + [
                            "gateway.http.port=\(28080 + 10 * index)", "gateway.ops.http.port=\(28180 + 10 * index)",
                            "gateway.modules=auth,catalog,games",
                        ], data: store.directory)
                }
                processes += gatewayProcesses
                let gatewayURLs = (0..<gateways).map { "http://127.0.0.1:\(28080 + 10 * $0)" }
                for index in 0..<gateways { try await ChildProcess.waitForHealth("http://127.0.0.1:\(28180 + 10 * index)") }
                var gamesURLs = ["http://127.0.0.1:28083"]
                if instances == 2 {
                    let shared = settings.filter { $0.hasPrefix("games.") || $0.hasPrefix("internal.") }
                    processes.append(
                        try ChildProcess.huddle(
                            ["--modules", "games"],
                            settings: shared.filter { !$0.hasPrefix("games.http.port") } + [
                                "games.http.port=28183", "auth.url=http://127.0.0.1:28081", "catalog.url=http://127.0.0.1:28082",
                            ], data: store.directory))
                    try await ChildProcess.waitForHealth("http://127.0.0.1:28183")
                    gamesURLs.append("http://127.0.0.1:28183")
                }
                let match = try await fanOut(
                    feed: FootballControlClient(baseURL: feedURL), games: gamesURLs, store: gamesStore, modules: processes[0],
                    gateways: throughGateway ? zip(gatewayURLs, gatewayProcesses).map { $0 } : [], logger: logger)
                if getSeconds > 0 { try await conditionalGets(gateway: gatewayURLs[0], match: match) }
            }
        }
    }

    /// `gateways`: where the devices connect when through the gateway, and each one's process.
    private func fanOut(
        feed: FootballControlClient, games: [String], store: String, modules: ChildProcess,
        gateways: [(url: String, process: ChildProcess)], logger: Logger
    ) async throws -> MatchID {
        let fixture = try await feed.schedule(
            .init(home: "Bench Rovers", away: "Bench United", kickoff: Effects.system.now().addingTimeInterval(60)))
        try await feed.setStatus(fixture, "1H")
        let reader = TestClient(baseURL: games[0])
        var current: Match?
        while current?.status != .firstHalf {
            current = try? await reader.call(GamesAPI.matches, query: GamesAPI.matchesLive(true)).decode(Page<Match>.self).items.first
            try await Task.sleep(for: .milliseconds(50))
        }
        guard let id = current?.id else { throw ValidationError("games did not see the match") }
        let setup =
            (instances == 2 ? "two instances sharing PostgreSQL" : (postgres == nil ? "one instance, SQLite" : "one instance, PostgreSQL"))
            + (gateways.isEmpty ? "" : gateways.count == 1 ? ", through the gateway" : ", through \(gateways.count) gateways")
        let deviceURLs = gateways.isEmpty ? games : gateways.map(\.url)
        let gatewaysResident = { gateways.map { $0.process.residentBytes() }.reduce(0, +) }
        var devices: [Device] = []
        var event = 0
        for count in Set([max(1, clients / 10), clients]).sorted() {
            let (residentBefore, added) = (modules.residentBytes(), count - devices.count)
            let gatewaysBefore = gatewaysResident()
            for index in devices.count..<count {
                devices.append(try await Device.connect(baseURL: deviceURLs[index % deviceURLs.count], path: "/v1/matches/\(id)/live"))
            }
            // Each device is sent the match when it connects; one that is not within a minute is
            // counted, and its deliveries are missing below.
            let connected = ContinuousClock.now
            while devices.contains(where: { $0.frameCount == 0 }), ContinuousClock.now - connected < .seconds(60) {
                try await Task.sleep(for: .milliseconds(100))
            }
            let unserved = devices.filter { $0.frameCount == 0 }.count
            // Memory per device: what this step's devices added to the modules' process once each had
            // its first frame (with two instances, the first's, for its half of them).
            try await Task.sleep(for: .seconds(2))
            let residentAfter = modules.residentBytes()
            let memoryLine =
                String(
                    format: "  the modules' RSS %.1f MB -> %.1f MB for the last %d devices: %.1f KB a device", Double(residentBefore) / 1e6,
                    Double(residentAfter) / 1e6, added, Double(residentAfter - residentBefore) / Double(max(1, added / instances)) / 1024)
                + (gateways.isEmpty
                    ? ""
                    : String(
                        format: "; the gateways' %.1f KB a device (its socket and its link to games)",
                        Double(gatewaysResident() - gatewaysBefore) / Double(max(1, added)) / 1024))
            let firstFrames = devices.map(\.frameCount)
            let startVersion = devices.compactMap { $0.arrivals().last?.message.version }.max() ?? 0
            // Wall time of the continuous clock's readings, to compare arrivals with updatedAt.
            let base = (clock: ContinuousClock.now, wall: Effects.system.now())
            let cpu = FanOutCPU(server: modules, relays: gateways.map(\.process))
            for _ in 0..<seconds {
                try await feed.record(
                    fixture,
                    .init(
                        type: "Card", detail: "Yellow Card", team: event % 2 == 0 ? .home : .away, player: "Bench \(event)",
                        elapsed: 10 + event))
                event += 1
                try await Task.sleep(for: .seconds(1))
            }
            try await Task.sleep(for: .seconds(2))
            let cpuLine = cpu.line(
                per: "change", units: seconds, server: "modules'", devices: count, serverDevices: (count + instances - 1) / instances)

            // `updatedAt` travels in whole seconds: when games ingested each version, to the microsecond,
            // is read from its store.
            let ingested = try await Self.ingestionTimes(of: id, store: store, logger: logger)
            var latencies: [Double] = [], versions = Set<Int>(), frameBytes: [Int] = []
            var byChange: [Int: [Double]] = [:]
            for (device, first) in zip(devices, firstFrames) {
                for arrival in device.arrivals(from: first) where arrival.message.version > startVersion {
                    guard let at = ingested[arrival.message.version] else { continue }
                    versions.insert(arrival.message.version)
                    frameBytes.append(arrival.bytes)
                    let arrived = base.wall.addingTimeInterval((arrival.at - base.clock).seconds)
                    let latency = arrived.timeIntervalSince(at) * 1000
                    latencies.append(latency)
                    byChange[arrival.message.version, default: []].append(latency)
                }
            }
            latencies.sort()
            print(
                "live-match: \(count) devices, \(versions.count) versions over \(seconds) s, \(setup)"
                    + (unserved > 0 ? "; \(unserved) devices were not sent the match on connecting" : ""))
            print(
                String(
                    format: "  deliveries %d of %d  min %.2f ms  p50 %.2f ms  p99 %.2f ms  max %.2f ms  (frames of %d to %d bytes)",
                    latencies.count, versions.count * count, latencies.first ?? .nan, percentile(latencies, 0.5),
                    percentile(latencies, 0.99), latencies.last ?? .nan, frameBytes.min() ?? 0, frameBytes.max() ?? 0))
            print(Self.changesLine(byChange))
            // What limits the figure on a small machine. The modules' process: games' fan-out, and its
            // polling of the feed, most of it at a few devices (the other modules idle); with two games
            // instances, the first's, for its half of the devices. This one: the devices, and the
            // feed's stand-in.
            print(cpuLine)
            print(memoryLine)
        }
        for device in devices { await device.close() }
        return id
    }

    /// Each change's own p99, over its devices: their median and spread, and the slowest change, so a
    /// run's p99 that one slow change makes shows as such: at 15 changes each holds a fifteenth of the
    /// deliveries, more than the hundredth above the p99.
    static func changesLine(_ latencies: [Int: [Double]]) -> String {
        let p99s = latencies.mapValues { percentile($0.sorted(), 0.99) }
        guard let slowest = p99s.max(by: { $0.value < $1.value }) else { return "  no change was delivered" }
        return "  each change's p99 \(Spread(Array(p99s.values), unit: " ms", digits: 1)), the slowest version \(slowest.key)'s"
    }

    /// When games stored each version of the match (`match_changes.changed_at`, its `updatedAt`).
    private static func ingestionTimes(of match: MatchID, store url: String, logger: Logger) async throws -> [Int: Date] {
        let database = try await Database.open(url: url, now: Effects.system.now, logger: logger)
        return try await withThrowingTaskGroup(of: [Int: Date].self) { group in
            group.addTask {
                try await database.run()
                return [:]
            }
            defer { group.cancelAll() }
            let rows = try await database.read { sql in
                try await sql.select().columns("version", "changed_at").from("match_changes")
                    .where("match_id", .equal, SQLBind(match.description)).all()
            }
            return try Dictionary(
                rows.map { (try $0.decode(column: "version", as: Int.self), try $0.decode(column: "changed_at", as: Date.self)) }
            ) { first, _ in first }
        }
    }

    /// GETs of the match through the gateway from `concurrency` loops: first plain (200 with the
    /// body), then with the current ETag (304, no body).
    private func conditionalGets(gateway: String, match: MatchID) async throws {
        let url = "\(gateway)/v1/matches/\(match)"
        let tag = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5)).headers.first(name: "ETag") ?? ""
        var rates: [Int: Double] = [:]
        for conditional in [false, true] {
            let counts = NIOLockedValueBox([Int: Int]())
            let deadline = ContinuousClock.now + .seconds(getSeconds)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        var request = HTTPClientRequest(url: url)
                        if conditional { request.headers.add(name: "If-None-Match", value: tag) }
                        while ContinuousClock.now < deadline {
                            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            counts.withLockedValue { $0[Int(response.status.code), default: 0] += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (status, count) in counts.withLockedValue({ $0 }) { rates[status, default: 0] += Double(count) / Double(getSeconds) }
        }
        let fresh = rates[200] ?? 0, notModified = rates[304] ?? 0
        print(
            String(
                format: "conditional GETs through the gateway, %d loops: 200 %.0f/s  304 %.0f/s  (a 304 costs %.2f of a 200)", concurrency,
                fresh, notModified, fresh / max(notModified, 1)))
    }
}
