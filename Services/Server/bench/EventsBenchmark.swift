import ArgumentParser
import Configuration
import Contracts
import Foundation
import HuddleEffects
import HuddleModules
import Logging
import ModuleLauncher
import ProviderStandIns
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import ServiceStore

/// `huddle-bench events`: games' outbox delivered to search as every publisher delivers (the
/// outbox dispatcher, over `/internal/events`). The rate at which a backlog of `games.game.created`
/// goes out with `--partitions` senders; then how long a game made through the API takes to be
/// applied by search, with nothing else going on and (on PostgreSQL) while a write transaction is
/// held open in another module's database.
///
/// With `--apart`, games (with auth) and search run in `huddle` processes of their own, as a
/// deployment runs them, rather than together in this one.
struct EventsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "Event delivery: the rate games → search, and its latency beside an open transaction.")

    @Option(help: "Events in the backlog whose delivery is timed.") var events = 50_000
    @Option(help: "Parts games' stream is sent in, each by its own sender.") var partitions = 1
    @Option(help: "Games made through the API, one at a time, for each latency.") var samples = 200
    @Option(help: "Seconds a write transaction is held open in auth's database while games are made (PostgreSQL).")
    var heldSeconds = 60
    @Option(help: "A PostgreSQL URL whose user may create databases; SQLite files otherwise.") var postgres: String?
    @Flag(help: "Games (with auth) and search each in a `huddle` process of its own rather than in this one.") var apart = false

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        try await BenchStore.with(postgres: postgres, name: "events") { store in
            let urls = [
                "auth": try await store.url("auth"), "games": try await store.url("games"), "search": try await store.url("search"),
            ]
            let settings = [
                "auth.bcrypt.cost": "4", "log.level": "error",
                "auth.db.url": urls["auth"]!, "games.db.url": urls["games"]!, "search.db.url": urls["search"]!,
                "games.events.subscribers": "search", "games.events.partitions": String(partitions),
                // The backlog is written from outside games, so no commit of its own wakes the dispatcher.
                "games.events.poll.ms": "50",
            ].merging(AbsentModules.addresses(besides: [.auth, .games, .search])) { given, _ in given }
            let measured = { (games: String, auth: String) in
                try await withOpen([urls["games"]!, urls["search"]!, urls["auth"]!], logger: logger) { databases in
                    try await measure(
                        games: databases[0], search: databases[1], auth: databases[2], gamesURL: games, authURL: auth, kind: store.kind)
                }
            }
            if apart {
                try await measureApart(settings: settings, data: store.directory, measured)
                return
            }
            let stack = try await EmbeddedStack.start(
                modules: [.auth, .games, .search],
                reader: ConfigReader(
                    provider: EnvironmentVariablesProvider.settings(
                        settings.merging(["auth.http.port": "0", "games.http.port": "0", "search.http.port": "0"]) { given, _ in given })),
                internalKeys: TestStack.internalKeys, logger: logger)
            do {
                try await measured(stack.url(of: .games), stack.url(of: .auth))
            } catch {
                try? await stack.stop()
                throw error
            }
            try await stack.stop()
        }
    }

    /// `measured` with auth and games in one `huddle` and search in another.
    private func measureApart(
        settings: [String: String], data: URL, _ measured: (_ games: String, _ auth: String) async throws -> Void
    ) async throws {
        let ports = ["auth": 28091, "games": 28092, "search": 28093]
        let addressed = ports.flatMap { module, port in
            ["\(module).http.port=\(port)", "\(module).url=http://127.0.0.1:\(port)"]
        }
        let all = settings.map { "\($0.key)=\($0.value)" } + addressed
        let search = try ChildProcess.huddle(["--modules", "search"], settings: all, data: data)
        let games = try ChildProcess.huddle(["--modules", "auth,games"], settings: all, data: data)
        defer {
            games.stop()
            search.stop()
        }
        try await ChildProcess.waitForHealth("http://127.0.0.1:28093")
        try await ChildProcess.waitForHealth("http://127.0.0.1:28092")
        try await measured("http://127.0.0.1:28092", "http://127.0.0.1:28091")
    }

    private func measure(
        games: Database, search: Database, auth: Database, gamesURL: String, authURL: String, kind: String
    ) async throws {
        let applied = { try await search.read { sql in try await Self.count(of: "inbox", on: sql) } }
        // The backlog: committed at once, from outside games, then timed until search has applied it all.
        var random = SplitMix64(seed: 7)
        let backlog = try (0..<events).map { _ in
            let game = SearchBenchmark.randomGame(using: &random)
            return try GameEvent.created.event(
                GameEvent.GameChanged(game: game), aggregateID: game.id.description, occurredAt: Effects.system.now())
        }
        let before = try await applied()
        try await games.transaction { sql in
            for event in backlog { try await Outbox(now: Effects.system.now).append(event, on: sql) }
        }
        let started = ContinuousClock.now
        // A partition is delivered in order, so once the backlog's last hundred events of every
        // partition are applied, all are. Looked up by id every 50 ms: counting search's whole
        // inbox as often took a fifth of a core of PostgreSQL's time from the delivery it timed.
        let tail = backlog.suffix(100 * partitions).map { $0.id.description }
        func tailApplied() async throws -> Bool {
            try await search.read { sql in
                try await sql.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from("inbox")
                    .where("event_id", .in, SQLBind.group(tail)).first()?.decode(column: "n", as: Int.self)
            } == tail.count
        }
        while try await !tailApplied() { try await Task.sleep(for: .milliseconds(50)) }
        let took = ContinuousClock.now - started
        let delivered = try await applied() - before
        guard delivered == events else { throw ValidationError("search applied \(delivered) of the \(events) events") }
        print(
            String(
                format: "events: %d games.game.created games → search on %@, %d partition(s)%@: %.0f events/s (%.2f s)", events, kind,
                partitions, apart ? ", apart" : "", Double(events) / took.seconds, took.seconds))

        let client = TestClient(baseURL: gamesURL)
        let token = try await TestClient(baseURL: authURL).register(name: "Bench Organiser").accessToken
        /// `samples` games, each `apart` after the one before began.
        func latencies(_ label: String, apart: Duration = .zero) async throws {
            var taken: [Double] = []
            for _ in 0..<samples {
                let due = ContinuousClock.now + apart
                let count = try await applied()
                let start = ContinuousClock.now
                let made = try await client.call(GamesAPI.createGame, body: Self.pickup(), token: token)
                guard made.status == 201 else { throw ValidationError("a game was refused: \(made.status) \(made.text)") }
                while try await applied() <= count { try await Task.sleep(for: .milliseconds(1)) }
                taken.append((ContinuousClock.now - start).seconds * 1000)
                try await Task.sleep(until: due, clock: .continuous)
            }
            taken.sort()
            print(
                String(
                    format: "  a game made → applied by search, %@: p50 %.1f ms  p99 %.1f ms  max %.1f ms  (%d games)", label,
                    percentile(taken, 0.5), percentile(taken, 0.99), taken.last ?? .nan, samples))
        }
        try await latencies("nothing else open")
        guard postgres != nil else { return }
        // A write transaction left open in auth's database, as a stuck connection or a long migration would hold it.
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let held = Task {
            try await auth.transaction { sql in
                try await sql.raw("SELECT pg_current_xact_id()").run()
                open.yield()
                try? await Task.sleep(for: .seconds(heldSeconds))
            }
        }
        for await _ in opened { break }
        let heldSince = ContinuousClock.now
        // Spread over the time it is held, the last made a little before it ends.
        try await latencies("a write transaction open in auth's database", apart: .seconds(Double(heldSeconds) * 0.9 / Double(samples)))
        print(
            String(
                format: "  (the transaction was open %.1f s of the %d s it is held)", (ContinuousClock.now - heldSince).seconds, heldSeconds
            ))
        held.cancel()
        _ = try? await held.value
    }

    /// A pick-up game next week in Tallinn.
    static func pickup() -> CreateGameRequest {
        CreateGameRequest(
            kind: .pickup, startsAt: Effects.system.now().addingTimeInterval(7 * 86_400).wholeSeconds,
            location: Location(lat: 59.437, lng: 24.7536),
            sport: .football, privacy: .public, ageGroup: .adult, gender: .coed, skill: .intermediate)
    }

    static func count(of table: String, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("count", args: SQLLiteral.all), as: "n").from(table).first()?.decode(
            column: "n", as: Int.self)
            ?? 0
    }

    /// The stores at `urls` open (beside the stack's own connections) for the length of `body`.
    private func withOpen(_ urls: [String], logger: Logger, _ body: ([Database]) async throws -> Void) async throws {
        var databases: [Database] = []
        for url in urls { databases.append(try await Database.open(url: url, now: Effects.system.now, logger: logger)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in databases { group.addTask { try await database.run() } }
            defer { group.cancelAll() }
            try await body(databases)
        }
    }
}
