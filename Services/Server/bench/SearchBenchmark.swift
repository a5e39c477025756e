import ArgumentParser
import Configuration
import Contracts
import Foundation
import HuddleEffects
import HuddleModules
import Logging
import ModuleLauncher
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench search`: loads games spread over Europe (or, `--places clustered`, in its cities
/// by population) into search's index through `/internal/events` (as games would deliver them) and
/// measures the indexing rate, then the latency of 5 km and 50 km searches with filters through
/// HTTP (clustered: in the densest city).
struct SearchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search indexing rate and geo query latency.")

    @Option(help: "Games to index.") var games = 1_000_000
    @Option(help: "Events per delivered batch.") var batch = 1_000
    @Option(help: "Batches delivered at once (publishers deliver concurrently: auth, catalog, games, their replicas).") var streams = 1
    @Option(help: "Searches per radius.") var queries = 1_000
    @Option(help: "A PostgreSQL URL whose user may create databases; a SQLite file otherwise.") var postgres: String?
    @Option(help: "wrk (apt install wrk): the same searches again from a process of their own, as a phone's are.") var wrk = "/usr/bin/wrk"
    @Option(help: "Seconds of searches through wrk per radius.") var wrkSeconds = 8
    @Option(help: "Where the games are: uniform over Europe, or clustered in its cities by population (searched in the densest).")
    var places = BenchPlaces.uniform

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        // A million games make a SQLite file of about 800 MB: it is removed at the end.
        try await BenchStore.with(postgres: postgres, name: "search") { store in
            let searchDB = try await store.url("search")
            let settings = [
                "auth.bcrypt.cost": "4", "auth.http.port": "0", "auth.db.url": "sqlite::memory:", "search.http.port": "0",
                "search.db.url": searchDB, "log.level": "error",
            ].merging(AbsentModules.addresses(besides: [.auth, .search])) { given, _ in given }
            let stack = try await EmbeddedStack.start(
                modules: [.auth, .search], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
                internalKeys: TestStack.internalKeys, logger: logger)
            do {
                try await measure(
                    search: TestClient(baseURL: stack.url(of: .search), internalCallers: TestStack.internalCallers.acting(as: .games)),
                    auth: TestClient(baseURL: stack.url(of: .auth)), searchURL: stack.url(of: .search), directory: store.directory)
            } catch {
                try? await stack.stop()
                throw error
            }
            try await stack.stop()
        }
    }

    /// Indexes a tenth of the games and searches, then the rest and searches again: how indexing and
    /// searching grow with the index.
    private func measure(search: TestClient, auth: TestClient, searchURL: String, directory: URL) async throws {
        let token = try await auth.register(name: "Bench Searcher").accessToken
        let store = (postgres == nil ? "SQLite file" : "PostgreSQL") + ", \(places.rawValue)"
        var centers: [Coordinates] = [], indexed = 0, loading: Duration = .zero
        for size in Set([max(1, games / 10), games]).sorted() {
            let (more, took) = try await index(size - indexed, into: search)
            centers += more
            loading += took
            print(
                String(
                    format: "search: %d games indexed on %@: %.0f events/s over all %d (%.0f events/s for the last %d)", size, store,
                    Double(size) / loading.seconds, size, Double(size - indexed) / took.seconds, size - indexed))
            indexed = size
            var random = SystemRandomNumberGenerator()
            let around = places.searchCenters(from: centers, using: &random)
            try await searches(around: around, search: search, token: token)
            try await searchesThroughWrk(around: around, url: searchURL, token: token, directory: directory)
        }
    }

    /// Delivers `total` new games in batches, `streams` batches at once; returns centres to search
    /// around (public games' positions) and how long the delivery took.
    private func index(_ total: Int, into search: TestClient) async throws -> (centers: [Coordinates], took: Duration) {
        // Every batch is made and encoded before the clock starts, as a publisher does in its own
        // process: made while the index is fed, the generator took a fifth of the two cores search
        // is measured on.
        let (batches, batchInput) = AsyncStream<(body: Data, centers: [Coordinates])>.makeStream()
        for batch in try Self.batches(of: total, size: batch, places: places) { batchInput.yield(batch) }
        batchInput.finish()
        let started = ContinuousClock.now
        let centers = try await withThrowingTaskGroup(of: [Coordinates].self) { group in
            for _ in 0..<streams {
                group.addTask {
                    var centers: [Coordinates] = []
                    for await (body, batchCenters) in batches {
                        if centers.count < 5_000 { centers += batchCenters }
                        let response = try await search.call(
                            EventsAPI.deliver(to: .search), rawBody: body, headers: ["Content-Type": "application/json"])
                        guard response.status == 204 else { throw ValidationError("indexing failed: \(response.status) \(response.text)") }
                    }
                    return centers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return (centers, ContinuousClock.now - started)
    }

    /// `total` new games as `games.game.created` deliveries of `size` events, encoded, each with up
    /// to 20 public games' positions.
    private static func batches(of total: Int, size: Int, places: BenchPlaces) throws -> [(body: Data, centers: [Coordinates])] {
        // Seeded once: the system's generator asks the kernel for every number.
        var random = SplitMix64(seed: .random(in: .min ... .max))
        var batches: [(body: Data, centers: [Coordinates])] = []
        var made = 0
        while made < total {
            let count = min(size, total - made)
            var events: [EventEnvelope] = [], centers: [Coordinates] = []
            events.reserveCapacity(count)
            for _ in 0..<count {
                let game = randomGame(using: &random, places: places)
                if game.privacy == .public, centers.count < 20 { centers.append(game.location!.coordinates) }
                events.append(
                    try GameEvent.created.event(
                        GameEvent.GameChanged(game: game), aggregateID: game.id.description, occurredAt: Effects.system.now()))
            }
            batches.append((try HuddleJSON.encoder.encode(EventBatch(events: events)), centers))
            made += count
        }
        return batches
    }

    /// Times `queries` searches at 5 km and at 50 km around random `centers`, with sport and age-group filters.
    private func searches(around centers: [Coordinates], search: TestClient, token: String) async throws {
        var random = SystemRandomNumberGenerator()
        for radius in [5.0, 50.0] {
            var latencies: [Double] = [], found = 0
            for _ in 0..<queries {
                let query = Self.query(around: centers, radius: radius, using: &random)
                let start = ContinuousClock.now
                let response = try await search.call(SearchAPI.games, query: query, token: token)
                let elapsed = ContinuousClock.now - start
                guard response.status == 200 else { throw ValidationError("search failed: \(response.status) \(response.text)") }
                found += try response.decode(Page<Nearby<Game>>.self).items.count
                latencies.append(elapsed.seconds * 1000)
            }
            latencies.sort()
            print(
                String(
                    format: "  %.0f km with sport and age group: p50 %.2f ms  p99 %.2f ms  (%d searches, %.1f results each)", radius,
                    percentile(latencies, 0.5), percentile(latencies, 0.99), queries, Double(found) / Double(queries)))
        }
    }

    /// The same searches from wrk, at one connection for `wrkSeconds` a radius. The searches above are
    /// made by this process, whose two-thread concurrency pool search's handlers share with the
    /// client's HTTP and JSON; wrk's come from a process of their own, as a phone's come from another
    /// machine.
    private func searchesThroughWrk(around centers: [Coordinates], url: String, token: String, directory: URL) async throws {
        var random = SystemRandomNumberGenerator()
        let script = directory.appendingPathComponent("searches.lua")
        for radius in [5.0, 50.0] {
            let paths = (0..<2_000).map { _ in
                "\"\(SearchAPI.games.path())?\(Self.query(around: centers, radius: radius, using: &random).encoded)\""
            }
            let lua = """
                local paths = {\(paths.joined(separator: ",\n"))}
                local next = 0
                request = function()
                  next = next % #paths + 1
                  return wrk.format("GET", paths[next], {["Authorization"] = "Bearer \(token)"})
                end
                """
            try lua.write(to: script, atomically: true, encoding: .utf8)
            let summary = try await WrkSummary.run(wrk, ["-t", "1", "-c", "1", "-d", "\(wrkSeconds)s", "-s", script.path, url])
            guard summary.refused == 0, summary.errors == 0 else {
                throw ValidationError("searches through wrk: \(summary.refused) refused, \(summary.errors) socket errors")
            }
            print(
                String(
                    format: "  %.0f km through wrk, its own process: p50 %.2f ms  p99 %.2f ms  (%d searches)", radius, summary.p50,
                    summary.p99, summary.requests))
        }
    }

    /// A search's query around one of `centers`, for a random sport, adults, a page of 20.
    static func query(around centers: [Coordinates], radius: Double, using random: inout some RandomNumberGenerator) -> QueryItems {
        let center = centers.randomElement(using: &random)!
        let sport = Sport.allCases.randomElement(using: &random)!
        return Query.place(center) + Query.radiusKm(radius) + Query.sport(sport) + SearchAPI.ageGroup(.adult) + Query.limit(20)
    }

    /// A game at a place of `places` (by default somewhere between Lisbon and the Urals, Crete and the North Cape).
    static func randomGame(using random: inout some RandomNumberGenerator, places: BenchPlaces = .uniform) -> Game {
        let privacy: Privacy = [.public, .public, .public, .public, .public, .public, .public, .public, .protected, .private].randomElement(
            using: &random)!
        let place = places.position(using: &random)
        return Game(
            id: .timeOrdered(at: Effects.system.now()), kind: .pickup, organizerId: UserID(),
            startsAt: Effects.system.now().addingTimeInterval(.random(in: 3600...(60 * 24 * 3600), using: &random)).wholeSeconds,
            sport: Sport.allCases.randomElement(using: &random)!, privacy: privacy,
            ageGroup: AgeGroup.allCases.randomElement(using: &random)!, gender: Gender.allCases.randomElement(using: &random)!,
            skill: Skill.allCases.randomElement(using: &random)!, capacity: 12, goingCount: 1,
            subsNeeded: Int.random(in: 0..<10, using: &random) == 0 ? 2 : 0,
            location: Location(lat: place.lat, lng: place.lng), createdAt: Effects.system.now())
    }
}
