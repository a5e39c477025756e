import ArgumentParser
import Configuration
import Contracts
import Foundation
import HuddleEffects
import HuddleModules
import Logging
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench tickets`: ticket placement on betting at rising concurrency — tickets/s and p50/p99
/// of `POST /v1/betting/tickets` (a ledger transfer, the ticket, its legs and its key in one
/// transaction). With `--postgres`, pgbench's TPC-B runs on the same server at the same
/// concurrencies first, as the yardstick (a TPC-B transaction is about a ticket's work).
struct TicketsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tickets", abstract: "Ticket placement throughput and latency.")

    @Option(help: "A PostgreSQL URL whose user may create databases; SQLite in memory when absent.") var postgres: String?
    @Option(help: "Concurrent clients, comma-separated.") var concurrency = "1,4,16,32"
    @Option(help: "Seconds at each concurrency.") var seconds = 10
    @Option(help: "pgbench, for the yardstick.") var pgbench = "/usr/lib/postgresql/15/bin/pgbench"
    @Option(help: "wrk, which places the tickets (apt install wrk).") var wrk = "/usr/bin/wrk"
    @Option(help: "Runs, each pgbench then tickets; with --postgres the median ratio per level ends the output.") var runs = 1

    func run() async throws {
        let levels = concurrency.split(separator: ",").compactMap { Int($0) }
        guard !levels.isEmpty else { throw ValidationError("--concurrency needs numbers, e.g. 1,4,16") }
        // The yardstick's database is made on the same server.
        if let postgres { setenv("HUDDLE_TEST_POSTGRES_URL", postgres, 1) }
        var ratios: [Int: [Double]] = [:]
        for run in 1...max(1, runs) {
            if runs > 1 { print("run \(run) of \(runs)") }
            let yardstick = postgres == nil ? [:] : try await self.yardstick(levels)
            let placed = try await once(levels)
            for level in levels {
                guard let tps = yardstick[level], let rate = placed[level] else { continue }
                ratios[level, default: []].append(rate / tps)
                print(String(format: "  %3d clients: tickets/pgbench %.2f", level, rate / tps))
            }
        }
        guard !ratios.isEmpty else { return }
        print("tickets against pgbench TPC-B over \(runs) run\(runs == 1 ? "" : "s") (median, and spread; target ≥ 0.5):")
        for level in levels { print("  \(level) clients: \(Spread(ratios[level] ?? []))") }
    }

    /// Starts betting and places tickets at each level; tickets placed a second, by level.
    private func once(_ levels: [Int]) async throws -> [Int: Double] {
        try await BenchStore.with(postgres: postgres, name: "tickets") { store in
            var logger = Logger(label: "bench")
            logger.logLevel = .error
            let standIn = ConfigReader(
                provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.football.perminute": "1000000"]))
            return try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: logger, onListening: $0) }) { feedURL in
                // Betting runs as `huddle` runs it, in a process of its own.
                let server = try ChildProcess.huddle(
                    ["--modules", "auth,betting"],
                    settings: [
                        "auth.bcrypt.cost=4", "auth.http.port=28081",
                        "betting.http.port=28085",
                        "auth.db.url=\(try await store.url("auth"))", "betting.db.url=\(try await store.url("betting"))",
                        "betting.db.pool=\(max(20, levels.max() ?? 20))", "betting.odds.provider.url=\(feedURL)",
                        "betting.odds.provider.key=huddle-dev-football-key", "betting.odds.poll.ms=100",
                        "betting.wallet.grant=1000000000000",
                        "betting.stake.max=100000",
                    ],
                    data: store.directory)
                defer { server.stop() }
                try await ChildProcess.waitForHealth("http://127.0.0.1:28085")
                return try await place(
                    levels, betting: "http://127.0.0.1:28085", auth: "http://127.0.0.1:28081", feed: feedURL,
                    setup: store.kind)
            }
        }
    }

    /// The load comes from wrk, a C load generator, as TPC-B's comes from pgbench's C client: the
    /// clients share the machine's two cores with betting and PostgreSQL, and a client built on
    /// AsyncHTTPClient took 0.45 of a core at 4 clients (about 170 µs a ticket) where wrk takes 0.09.
    /// A connection per client and a user per connection; as many wrk threads as pgbench's `-j`.
    private func place(_ levels: [Int], betting: String, auth: String, feed: String, setup: String) async throws -> [Int: Double] {
        let picks = try await Self.fixtures(betting: TestClient(baseURL: betting), feed: FootballControlClient(baseURL: feed))
        let users = try await (0..<(levels.max() ?? 1)).asyncMap { index in
            try await TestClient(baseURL: auth).register(name: "Bench \(index)")
        }
        let bodies = try (0..<picks.count).map { number in
            let ticket = PlaceTicket(stake: 100, selections: [picks[number], picks[(number + 1) % picks.count]])
            return String(decoding: try HuddleJSON.encoder.encode(ticket), as: UTF8.self)
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("tickets-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        print("tickets (\(setup)): POST /v1/betting/tickets, two legs each, \(seconds) s per level, load from wrk")
        var rates: [Int: Double] = [:]
        for level in levels {
            let threads = Self.threads(level)
            try Self.wrkScript(
                tokens: users.prefix(level).map(\.accessToken), threads: threads, bodies: bodies, keyPrefix: "bench-\(level)"
            )
            .write(to: script, atomically: true, encoding: .utf8)
            let load = try await WrkSummary.run(
                wrk, ["-t", String(threads), "-c", String(level), "-d", "\(seconds)s", "--timeout", "30s", "-s", script.path, betting])
            rates[level] = load.rate
            print(
                String(
                    format: "  %3d clients: %7.1f tickets/s  p50 %6.2f ms  p99 %6.2f ms  (%d refused, %d socket errors)", level,
                    load.rate, load.p50, load.p99, load.refused, load.errors))
        }
        return rates
    }

    /// Load threads (wrk's `-t`, pgbench's `-j`) for `clients` on this machine's two cores.
    static func threads(_ clients: Int) -> Int { min(clients, 2) }

    /// wrk thread `i` of `threads` takes turns with the users `i`, `i + threads`, … (one per
    /// connection it holds), sending two-leg tickets whose picks rotate so consecutive tickets
    /// differ, each under a new Idempotency-Key.
    static func wrkScript(tokens: [String], threads: Int, bodies: [String], keyPrefix: String) -> String {
        func list(_ items: [String]) -> String { "{" + items.map { "[[\($0)]]" }.joined(separator: ", ") + "}" }
        return """
            local tokens = \(list(tokens))
            local bodies = \(list(bodies))
            local threads = \(threads)
            local started = 0
            function setup(thread)
              thread:set("index", started)
              started = started + 1
            end
            local number = 0
            function request()
              number = number + 1
              local users = math.floor((#tokens - index - 1) / threads) + 1
              local user = index + threads * (number % users)
              return wrk.format("POST", "\(BettingAPI.placeTicket.path())", {
                ["Authorization"] = "Bearer " .. tokens[user + 1],
                ["Content-Type"] = "application/json",
                ["Idempotency-Key"] = "\(keyPrefix)-" .. index .. "-" .. number,
              }, bodies[number % #bodies + 1])
            end
            """
    }

    /// Two pairs of picks on four priced fixtures, so consecutive tickets differ.
    static func fixtures(betting: TestClient, feed: FootballControlClient) async throws -> [TicketPick] {
        var picks: [TicketPick] = []
        for index in 0..<4 {
            let kickoff = Effects.system.now().addingTimeInterval(86_400)
            let provider = try await feed.schedule(
                .init(
                    home: "Bench \(index)", away: "Rivals \(index)", kickoff: kickoff, odds: .init(home: "1.90", draw: "3.40", away: "4.10")
                ))
            let match = Match(
                id: MatchID(), league: .init(id: 1, name: "Bench League", country: nil), kickoff: kickoff, status: .notStarted, minute: nil,
                home: .init(id: 2 * index, name: "Bench \(index)", logo: nil),
                away: .init(id: 2 * index + 1, name: "Rivals \(index)", logo: nil),
                score: .init(home: 0, away: 0), halftime: nil, events: [], version: 1, updatedAt: Effects.system.now())
            let event = try MatchEvent.updated.event(
                MatchEvent.MatchChanged(match: match, providerFixtureId: provider), aggregateID: match.id.description,
                occurredAt: Effects.system.now())
            try await betting.deliver([event], to: .betting)
            let priced = try await poll(every: .milliseconds(50)) {
                try? await betting.call(BettingAPI.fixture, match.id).decode(Fixture.self)
            } until: {
                $0?.odds != nil
            }
            if let odds = priced?.odds { picks.append(TicketPick(fixtureId: match.id, pick: .home, odds: odds.home)) }
        }
        guard picks.count == 4 else { throw ValidationError("betting did not price the fixtures") }
        return picks
    }

    /// pgbench's TPC-B (scale 1, as many clients as each level) on a fresh database of the same server.
    private func yardstick(_ levels: [Int]) async throws -> [Int: Double] {
        let url = try await TestStore.postgres.freshDatabaseURL()
        print("pgbench TPC-B (scale 1) on the same server, \(seconds) s per level")
        _ = try await ChildProcess.runTool(pgbench, ["-i", "-q", "-s", "1", url])
        var rates: [Int: Double] = [:]
        for level in levels {
            // `-T` never ends when pgbench is started from here (its timer signal arrives ignored), so
            // a short run sizes a `-t` run of about the wanted length.
            let probe =
                tps(
                    try await ChildProcess.runTool(
                        pgbench, ["-c", String(level), "-j", String(Self.threads(level)), "-t", "100", "-n", url]))
                ?? 100
            let perClient = max(100, Int(probe * Double(seconds) / Double(level)))
            let output = try await ChildProcess.runTool(
                pgbench, ["-c", String(level), "-j", String(Self.threads(level)), "-t", String(perClient), "-n", url])
            let latency = output.split(separator: "\n").first { $0.hasPrefix("latency average") }.map(String.init) ?? ""
            rates[level] = tps(output)
            print(String(format: "  %3d clients: %7.1f tps  ", level, tps(output) ?? .nan) + latency)
        }
        return rates
    }

    private func tps(_ output: String) -> Double? {
        output.split(separator: "\n").first { $0.hasPrefix("tps = ") }.flatMap { Double($0.dropFirst(6).prefix { $0 != " " }) }
    }
}
