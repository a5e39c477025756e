import ArgumentParser
import AsyncHTTPClient
import Configuration
import Contracts
import Foundation
import HuddleModules
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ProviderStandIns
import ServiceKit
import ServiceKitTesting

/// `huddle-bench live-match`: many devices on one match's live socket while the provider's feed
/// changes once a second; measures ingestion-to-delivery latency at every device (from the
/// version's `updatedAt`, taken when games ingested it, to its arrival). With `--instances 2`
/// (PostgreSQL only) devices are split over two games instances sharing the database. Then
/// conditional GETs of the match through the gateway: the rate of 304s against the rate of 200s.
struct LiveMatchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live-match", abstract: "Live match fan-out latency and 304 cost.")

    @Option(help: "Devices following the match.") var clients = 1000
    @Option(help: "Seconds of feed changes (one a second).") var seconds = 20
    @Option(help: "Games instances (2 needs --postgres).") var instances = 1
    @Option(help: "A PostgreSQL URL whose user may create databases; SQLite in memory when absent.") var postgres: String?
    @Option(help: "Seconds of each conditional-GET run (0 skips it).") var getSeconds = 10
    @Option(help: "Concurrent GET loops.") var concurrency = 16

    func run() async throws {
        guard instances == 1 || (instances == 2 && postgres != nil) else {
            throw ValidationError("--instances 2 needs --postgres: instances share the match through PostgreSQL")
        }
        let store: TestStore = postgres == nil ? .sqlite : .postgres
        if let postgres { setenv("HUDDLE_TEST_POSTGRES_URL", postgres, 1) }
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let standIn = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "100000"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: logger, onListening: $0) }) { feedURL in
            var settings = [
                "log.level": "error", "games.matches.provider.url": feedURL, "games.matches.provider.key": "huddle-dev-football-key",
                "games.matches.poll.live.ms": "100", "games.matches.poll.day.ms": "1000",
            ]
            let modules: [ServiceModule] = [.auth, .catalog, .games, .gateway]
            for module in modules {
                settings["\(module.rawValue).http.port"] = "0"
                settings["\(module.rawValue).db.url"] = try await store.freshDatabaseURL()
            }
            settings["gateway.modules"] = "auth,catalog,games"
            settings.merge(AbsentModules.addresses(besides: modules)) { given, _ in given }
            settings["gateway.ratelimit.rate"] = "1000000"
            settings["gateway.ratelimit.burst"] = "1000000"
            let first = try await EmbeddedStack.start(
                modules: modules, reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
                internalToken: TestStack.internalToken, logger: logger)
            var stacks = [first]
            do {
                var gamesURLs = [first.url(of: .games)]
                if instances == 2 {
                    var second = settings.filter { $0.key.hasPrefix("games.") }
                    second["auth.url"] = first.url(of: .auth)
                    second["catalog.url"] = first.url(of: .catalog)
                    let stack = try await EmbeddedStack.start(
                        modules: [.games], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(second)),
                        internalToken: TestStack.internalToken, logger: logger)
                    stacks.append(stack)
                    gamesURLs.append(stack.url(of: .games))
                }
                let match = try await fanOut(feed: FootballControlClient(baseURL: feedURL), games: gamesURLs)
                if getSeconds > 0 { try await conditionalGets(gateway: first.url(of: .gateway), match: match) }
            } catch {
                for stack in stacks { try? await stack.stop() }
                throw error
            }
            for stack in stacks { try? await stack.stop() }
        }
    }

    private func fanOut(feed: FootballControlClient, games: [String]) async throws -> MatchID {
        let fixture = try await feed.schedule(
            .init(home: "Bench Rovers", away: "Bench United", kickoff: Date().addingTimeInterval(60)))
        try await feed.setStatus(fixture, "1H")
        let reader = TestClient(baseURL: games[0])
        var current: Match?
        while current?.status != .firstHalf {
            current = try? await reader.call(GamesAPI.matches, query: "live=true").decode(Page<Match>.self).items.first
            try await Task.sleep(for: .milliseconds(50))
        }
        guard let id = current?.id else { throw ValidationError("games did not see the match") }
        var devices: [MatchSocket] = []
        for index in 0..<clients { devices.append(try await MatchSocket.connect(baseURL: games[index % games.count], match: id)) }
        for device in devices { _ = try await device.waitFor { _ in true } }
        let startVersion = devices.map { $0.messages.last?.version ?? 0 }.max() ?? 0
        // Wall time of the continuous clock's readings, to compare arrivals with updatedAt.
        let base = (clock: ContinuousClock.now, wall: Date())

        for second in 0..<seconds {
            try await feed.record(
                fixture,
                .init(
                    type: "Card", detail: "Yellow Card", team: second % 2 == 0 ? .home : .away, player: "Bench \(second)",
                    elapsed: 10 + second))
            try await Task.sleep(for: .seconds(1))
        }
        try await Task.sleep(for: .seconds(2))

        var latencies: [Double] = [], versions = Set<Int>()
        for device in devices {
            for arrival in device.arrivals where arrival.message.version > startVersion {
                versions.insert(arrival.message.version)
                let elapsed = arrival.at - base.clock
                let arrived = base.wall.addingTimeInterval(
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                latencies.append(arrived.timeIntervalSince(arrival.message.match.updatedAt) * 1000)
            }
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let setup =
            instances == 2 ? "two instances sharing PostgreSQL" : (postgres == nil ? "one instance, SQLite" : "one instance, PostgreSQL")
        let expected = versions.count * clients
        print("live-match: \(clients) devices, \(versions.count) versions over \(seconds) s, \(setup)")
        print(
            String(
                format: "  deliveries %d of %d  min %.2f ms  p50 %.2f ms  p99 %.2f ms  max %.2f ms", latencies.count, expected,
                latencies.first ?? .nan, percentile(0.5), percentile(0.99), latencies.last ?? .nan))
        for device in devices { await device.close() }
        return id
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
