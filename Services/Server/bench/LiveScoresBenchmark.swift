import ArgumentParser
import Configuration
import Contracts
import Foundation
import HuddleModules
import Logging
import ModuleLauncher
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench live-scores`: many devices on one round's live socket, one of them sending score
/// updates at a steady rate; measures update-to-delivery latency at every device. With
/// `--instances 2` (PostgreSQL only) the devices are split over two games instances sharing the
/// database, so half of the deliveries cross instances through LISTEN/NOTIFY.
struct LiveScoresBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live-scores", abstract: "Live scorecard fan-out latency.")

    @Option(help: "Devices connected to the round.") var clients = 50
    @Option(help: "Score updates per second from the sending device.") var rate = 20.0
    @Option(help: "Seconds of sending.") var seconds = 20.0
    @Option(help: "Games instances (2 needs --postgres).") var instances = 1
    @Option(help: "A PostgreSQL URL whose user may create databases; SQLite in memory when absent.") var postgres: String?

    func run() async throws {
        guard instances == 1 || (instances == 2 && postgres != nil) else {
            throw ValidationError("--instances 2 needs --postgres: instances share the round through PostgreSQL")
        }
        let store: TestStore = postgres == nil ? .sqlite : .postgres
        if let postgres { setenv("HUDDLE_TEST_POSTGRES_URL", postgres, 1) }
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        var settings = ["auth.bcrypt.cost": "4", "auth.admin.emails": "bench-admin@example.com", "log.level": "error"]
        for module in [ServiceModule.auth, .catalog, .games] {
            settings["\(module.rawValue).http.port"] = "0"
            settings["\(module.rawValue).db.url"] = try await store.freshDatabaseURL()
        }
        settings.merge(AbsentModules.addresses(besides: [.auth, .catalog, .games])) { given, _ in given }
        let first = try await EmbeddedStack.start(
            modules: [.auth, .catalog, .games], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            internalKeys: TestStack.internalKeys, logger: logger)
        var gamesURLs = [first.url(of: .games)]
        var stacks = [first]
        if instances == 2 {
            let second = [
                "games.http.port": "0", "games.db.url": settings["games.db.url"]!, "auth.url": first.url(of: .auth),
                "catalog.url": first.url(of: .catalog),
            ]
            let stack = try await EmbeddedStack.start(
                modules: [.games], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(second)),
                internalKeys: TestStack.internalKeys, logger: logger)
            stacks.append(stack)
            gamesURLs.append(stack.url(of: .games))
        }
        do {
            try await measure(auth: first.url(of: .auth), catalog: first.url(of: .catalog), games: gamesURLs)
        } catch {
            for stack in stacks { try? await stack.stop() }
            throw error
        }
        for stack in stacks { try? await stack.stop() }
    }

    /// With a tenth of the devices first, then all of them.
    private func measure(auth: String, catalog: String, games gamesURLs: [String]) async throws {
        let (round, players, sessions) = try await prepareRound(auth: auth, catalog: catalog, games: gamesURLs[0])
        var devices: [LiveSocket] = []
        var sent = 0
        for size in Set([max(1, clients / 10), clients]).sorted() {
            for index in devices.count..<size {
                let device = try await LiveSocket.connect(
                    baseURL: gamesURLs[index % gamesURLs.count], round: round.id, token: sessions[index % sessions.count].accessToken)
                devices.append(device)
            }
            for device in devices { _ = try await device.waitFor { $0.type == .card } }
            try await updates(from: sent, round: round, players: players, devices: devices)
            sent += Int(rate * seconds)
        }
        for device in devices { await device.close() }
    }

    /// Sends `rate` updates a second from the first device and prints their latency at every device.
    /// Every update sets a cell to a value it has not had in this run (`first` counts those sent
    /// before), so each one is a new version and its (player, hole, strokes) names it uniquely.
    private func updates(from first: Int, round: Scorecard, players: [RoundPlayerID], devices: [LiveSocket]) async throws {
        let sender = devices[0]
        var sentAt: [String: ContinuousClock.Instant] = [:]
        let count = Int(rate * seconds)
        let interval = Duration.seconds(1 / rate)
        var next = ContinuousClock.now
        for index in first..<(first + count) {
            let cell = index % (players.count * round.holes.count)
            let pass = index / (players.count * round.holes.count)
            let update = ScoreUpdate(
                playerId: players[cell % players.count], hole: cell / players.count + 1, strokes: 2 + pass % 18)
            sentAt[Self.key(update.playerId, update.hole, update.strokes)] = .now
            try sender.send(update)
            next = next.advanced(by: interval)
            try await Task.sleep(until: next)
        }
        try await Task.sleep(for: .seconds(2))

        var latencies: [Double] = [], missing = 0
        for device in devices {
            var seen = 0
            for arrival in device.arrivals where arrival.message.type == .score {
                guard let playerId = arrival.message.playerId, let hole = arrival.message.hole, let strokes = arrival.message.strokes,
                    let sent = sentAt[Self.key(playerId, hole, strokes)]
                else { continue }
                seen += 1
                latencies.append((arrival.at - sent).seconds * 1000)
            }
            missing += max(0, count - seen)
        }
        latencies.sort()
        let setup =
            instances == 2 ? "two instances sharing PostgreSQL" : (postgres == nil ? "one instance, SQLite" : "one instance, PostgreSQL")
        print("live-scores: \(devices.count) devices, \(count) updates at \(rate)/s, \(setup)")
        print(
            String(
                format: "  deliveries %d (missing %d)  p50 %.2f ms  p99 %.2f ms  max %.2f ms", latencies.count, missing,
                percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.last ?? .nan))
    }

    static func key(_ player: RoundPlayerID, _ hole: Int, _ strokes: Int) -> String { "\(player)/\(hole)/\(strokes)" }

    /// A nine-hole course, ten players (each device signs in as one of them), and a round.
    private func prepareRound(auth: String, catalog: String, games: String) async throws
        -> (Scorecard, [RoundPlayerID], [Session])
    {
        let authClient = TestClient(baseURL: auth)
        let admin = try await authClient.register(name: "Bench Admin", email: "bench-admin@example.com")
        let holes = (1...9).map { number in
            Hole(
                number: number, par: 3, tee: Coordinates(lat: 58.98 + Double(number) * 0.001, lng: 26.25),
                basket: Coordinates(lat: 58.9805 + Double(number) * 0.001, lng: 26.25))
        }
        let course = try await TestClient(baseURL: catalog).call(
            CatalogAPI.createCourse,
            body: CreateCourseRequest(name: "Bench Park", location: Location(lat: 58.98, lng: 26.25), holes: holes),
            token: admin.accessToken
        ).decode(Course.self)
        var sessions: [Session] = []
        for index in 0..<10 { sessions.append(try await authClient.register(name: "Bench Player \(index)")) }
        let request = StartRoundRequest(courseId: course.id, players: sessions.dropFirst().map { RoundPlayerRequest(userId: $0.user.id) })
        let card = try await TestClient(baseURL: games).call(GamesAPI.startRound, body: request, token: sessions[0].accessToken).decode(
            Scorecard.self)
        return (card, card.players.map(\.playerId), sessions)
    }
}
