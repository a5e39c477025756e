import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import ModuleLauncher
import NIOCore
import NIOHTTP1
import NIOPosix
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Synchronization
import Testing

@testable import HuddleModules

/// The whole stack as `huddle` runs it (one process, each module on its own port, real HTTP),
/// on port 0, driven only through the gateway. With `HUDDLE_TEST_GATEWAY_URL` set (by
/// deploy/compose/topology.sh), the journeys run once against that deployed stack instead, whose
/// administrators include `adminEmail`; the tests of the embedded stack itself are skipped.
@Suite("Stack through the gateway", .serialized)
struct StackTests {
    static let adminEmail = "stack-admin@example.com"
    static let deployedGateway = ProcessInfo.processInfo.environment["HUDDLE_TEST_GATEWAY_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// The stores to run each journey on: both for an embedded stack, the deployed one's once.
    static var stores: [TestStore] { deployedGateway == nil ? TestStore.all : [.postgres] }
    static let embeddedOnly: ConditionTrait = .disabled(if: deployedGateway != nil, "tests the embedded stack itself")
    /// Tests whose timing the whole suite's load on two cores upsets: `.ci/run` runs them after the
    /// suite, on their own, with the kill tests (`HUDDLE_KILL_TESTS=1`).
    static let onTheirOwn: ConditionTrait = .enabled(
        if: ProcessInfo.processInfo.environment["HUDDLE_KILL_TESTS"] == "1", "runs after the suite, on its own (HUDDLE_KILL_TESTS=1)")

    /// Signs in as the administrator, registering it on a stack that does not know it yet.
    static let administratorPassword = "stack admin password"

    static func administrator(_ gateway: TestClient) async throws -> Session {
        let password = administratorPassword
        let registered = try await gateway.call(
            AuthAPI.register, body: RegisterRequest(email: adminEmail, password: password, name: "Stack Admin"))
        if registered.status == 201 { return try registered.decode(Session.self) }
        // A deployed stack knows the administrator already, and its journeys sign in as it from twenty
        // suites at once. Auth counts each sign-in a failure until its hash proves right, so that many at
        // once is throttled like guessing (429, `Retry-After`), and a hash can queue past the gateway's
        // upstream timeout (503, 504): both are tried again; anything else fails with what it answered.
        var attempts = 0
        while true {
            attempts += 1
            let login = try await gateway.call(AuthAPI.login, body: LoginRequest(email: adminEmail, password: password))
            if login.status == 200 { return try login.decode(Session.self) }
            guard [429, 503, 504].contains(login.status), attempts < 10 else { throw UnexpectedResponse(response: login, expected: 200) }
            let wait = min(5, login.header("Retry-After").flatMap(Int.init) ?? 1)
            try await Task.sleep(for: .seconds(wait))
        }
    }

    /// The stack with games (and `config`'s other modules) polling a providers' stand-in of its own every
    /// 200 ms; `body` gets the gateway and the stand-in's football controls.
    /// Betting priced from the stand-in's odds (`{feed}`) every 200 ms.
    static let bettingOnTheFeed = [
        "betting.odds.provider.url": "{feed}",
        "betting.odds.provider.key": "huddle-dev-football-key", "betting.odds.poll.ms": "200",
    ]

    static func withFootballStack(
        store: TestStore, config: [String: String] = [:], body: (TestClient, FootballControlClient) async throws -> Void
    ) async throws {
        let standIn = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: Logger(label: "stand-in"), onListening: $0) }) {
            feedURL in
            var settings = [
                "games.matches.provider.url": feedURL, "games.matches.provider.key": "huddle-dev-football-key",
                "games.matches.poll.live.ms": "200", "games.matches.poll.day.ms": "200",
            ]
            for (key, value) in config { settings[key] = value.replacingOccurrences(of: "{feed}", with: feedURL) }
            try await withStack(store: store, config: settings) { gateway in
                try await body(gateway, FootballControlClient(baseURL: feedURL))
            }
        }
    }

    /// A nine-hole course near Viljandi made by `admin`, hole `n` a hundred metres north of hole `n - 1`.
    static func nineHoleCourse(
        _ name: String, at location: Location, par: (Int) -> Int = { _ in 3 }, by admin: Session, through gateway: TestClient
    ) async throws -> Course {
        let holes = (1...9).map { number in
            Hole(
                number: number, par: par(number), tee: Coordinates(lat: 58.98 + Double(number) * 0.001, lng: 26.25),
                basket: Coordinates(lat: 58.9805 + Double(number) * 0.001, lng: 26.25))
        }
        return try await gateway.value(
            CatalogAPI.createCourse, body: CreateCourseRequest(name: name, location: location, holes: holes), token: admin.accessToken)
    }

    /// The settings of a stack whose modules listen on ports of their own choosing; `config` comes last
    /// (and names each module's store).
    static func settings(adminEmail: String = adminEmail, config: [String: String] = [:]) -> [String: String] {
        var settings = TestStack.loadedMachineSettings.merging([
            "auth.admin.emails": adminEmail,
            "gateway.modules": HuddleModules.available.filter { $0 != .gateway }.map(\.rawValue).joined(separator: ","),
        ]) { _, new in new }
        settings.merge(Wiring.subscriberSettings(for: HuddleModules.available)) { _, new in new }
        for module in HuddleModules.available {
            settings["\(module.rawValue).http.port"] = "0"
            settings["\(module.rawValue).db.pool"] = "10"
            settings["\(module.rawValue).db.pool.open"] = "1"
        }
        return settings.merging(config) { _, new in new }
    }

    static func withStack<T>(
        store: TestStore, logger: Logger = Logger(label: "stack-test"), adminEmail: String = adminEmail,
        config: [String: String] = [:], body: (TestClient) async throws -> T
    ) async throws -> T {
        if let deployedGateway { return try await body(TestClient(baseURL: deployedGateway)) }
        // A fresh database for each module `config` gives none, dropped once the stack has stopped.
        let made = try await store.freshDatabases(for: HuddleModules.available, besides: config)
        let settings = settings(adminEmail: adminEmail, config: made.merging(config) { _, given in given })
        let stack = try await EmbeddedStack.start(
            modules: HuddleModules.available, reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            internalKeys: TestStack.internalKeys, logger: logger, startupTimeout: TestStack.startupPatience)
        let running = stack.runner.dependencies.running
        do {
            let result = try await body(TestClient(baseURL: stack.url(of: .gateway)))
            try await stopping(running) { try await stack.stop() }
            await TestStore.dropDatabases(made.values)
            return result
        } catch {
            await stopping(running) { try? await stack.stop() }
            await TestStore.dropDatabases(made.values)
            throw error
        }
    }

    @Test("register, sign in, read my profile, refresh, sign out", arguments: StackTests.stores)
    func sessionLifecycle(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let registered = try await gateway.register(name: "Stack Player", email: "stack@example.com", password: "stack password 1")
            let login = try await gateway.call(AuthAPI.login, body: LoginRequest(email: "stack@example.com", password: "stack password 1"))
            #expect(login.status == 200)
            let session = try login.decode(Session.self)
            #expect(session.user.id == registered.user.id)

            let me = try await gateway.call(AuthAPI.me, token: session.accessToken)
            #expect(me.status == 200)
            #expect(try me.decode(MyProfile.self).email == "stack@example.com")
            #expect(me.header("X-Request-Id") != nil)

            let refreshed = try await gateway.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refreshed.status == 200)
            let next = try refreshed.decode(Session.self)

            #expect(try await gateway.call(AuthAPI.logout, token: next.accessToken).status == 204)
            // Refused at once by the instance that signed it out, and by every other instance within its
            // revocation poll (auth.revocation.poll.ms, 500 ms) when requests reach several.
            #expect(try await eventually(within: .seconds(3)) { try await gateway.call(AuthAPI.me, token: next.accessToken).status == 401 })
            #expect(try await gateway.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: next.refreshToken)).status == 401)

            let health = try await gateway.raw(.GET, "/health")
            #expect(health.status == 200)
            #expect(try await gateway.raw(.GET, "/.well-known/jwks.json").status == 200)
        }
    }
}

extension StackTests {
    @Test("stopping the stack is quiet: background work ends before the modules and the client it calls", embeddedOnly)
    func quietShutdown() async throws {
        let recorder = LogRecorder()
        let linesBeforeTheStop = Mutex(0)
        try await Self.withStack(store: .sqlite, logger: recorder.logger(label: "stack-test")) { gateway in
            // Registering leaves an event for auth to deliver to search and the others; every module polls
            // auth each 500 ms. The stop comes once search has it: in one process the modules stop one after
            // another, so an event still on its way to a module already stopped would be refused (and said).
            let quiet = try await gateway.register(name: "Quiet Player", email: "quiet@example.com", password: "quiet password 1")
            _ = try await eventually {
                try await !gateway.value(SearchAPI.players, query: SearchAPI.playerText("quiet"), token: quiet.accessToken).items.isEmpty
            }
            try await Task.sleep(for: .milliseconds(700))
            linesBeforeTheStop.withLock { $0 = recorder.logged.count }
        }
        // What the stop logs: a poll that timed out before it, with sixteen stacks on two cores, is
        // the machine's load, not the stop's; so is one still waiting for a connection (a stopped
        // callee refuses at once, which is what a wrong order of stopping would log).
        let warnings = recorder.logged.dropFirst(linesBeforeTheStop.withLock { $0 }).filter {
            $0.level >= .warning && !$0.message.contains("getConnectionFromPoolTimeout")
        }
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(recorder.logged.contains { $0.message.contains("Server started") })
    }

    @Test("a module started without the address of a module it calls refuses to start, naming the setting", embeddedOnly)
    func missingCallee() async throws {
        let settings = ["games.http.port": "0", "games.db.url": "sqlite::memory:", "auth.url": "http://127.0.0.1:1"]
        let error = await #expect(throws: MissingConfiguration.self) {
            try await EmbeddedStack.start(
                modules: [.games], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
                internalKeys: TestStack.internalKeys, logger: Logger(label: "stack-test"), startupTimeout: TestStack.startupPatience)
        }
        #expect(error?.key == "catalog.url")
        #expect(error?.description.contains("games calls catalog: set CATALOG_URL") == true)
    }

    @Test("a module whose port is taken ends start-up at once, naming itself, the address and the key that moves it", embeddedOnly)
    func portInUse() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(taken.localAddress?.port)
        var settings = [
            "gateway.http.port": "\(port)", "gateway.modules": "auth",
            "auth.http.port": "0", "auth.db.url": "sqlite::memory:", "auth.bcrypt.cost": "4",
        ]
        // Auth calls them for exports; nothing listens there, and nothing asks here.
        for holder in Wiring.personalDataHolders { settings["\(holder.rawValue).url"] = "http://127.0.0.1:9" }
        let started = ContinuousClock.now
        let error = await #expect(throws: ModuleFailed.self) {
            try await EmbeddedStack.start(
                modules: [.gateway, .auth], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
                internalKeys: TestStack.internalKeys, logger: Logger(label: "stack-test"), startupTimeout: TestStack.startupPatience)
        }
        #expect(error?.module == .gateway)
        #expect(error?.description.contains("127.0.0.1:\(port)") == true)
        #expect(error?.description.contains("gateway.http.port") == true)
        // Not the 30 s that start-up waits for modules to listen.
        #expect(ContinuousClock.now - started < .seconds(15))
        try await taken.close()
    }

    @Test("a team forms through the gateway: create, ask to join, approve, roster; a course to navigate", arguments: StackTests.stores)
    func teamAndCourse(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let manager = try await Self.player(gateway, "Maria Manager"), player = try await Self.player(gateway, "Pete Player")
            // A name of its own: a deployed stack keeps the other journeys' teams.
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let request = CreateTeamRequest(
                name: "Spikers \(suffix)", sport: .volleyball, privacy: .protected, location: Location(lat: 59.437, lng: 24.7536),
                ageGroup: .adult, gender: .coed, skill: .intermediate)
            let team = try await manager.send(CatalogAPI.createTeam, body: request)
            let found = try await player.send(CatalogAPI.teams, query: CatalogAPI.teamText("spikers \(suffix)"))
            #expect(found.items.map(\.id) == [team.id])
            #expect(try await player.send(CatalogAPI.joinTeam, team.id).membership == .pending)
            _ = try await manager.send(CatalogAPI.approveTeamRequest, team.id, try await player.userID)
            var roster: [TeamMember] = []
            for try await member in player.pages(CatalogAPI.members, team.id) { roster.append(member) }
            #expect(roster.map(\.name) == ["Maria Manager", "Pete Player"])
            #expect(roster.map(\.role) == [.manager, .player])

            let admin = try await Self.administratorApp(gateway)
            let holes = [
                Hole(number: 1, par: 3, tee: Coordinates(lat: 58.98068, lng: 26.25523), basket: Coordinates(lat: 58.98140, lng: 26.25610)),
                Hole(number: 2, par: 3, tee: Coordinates(lat: 58.98160, lng: 26.25630), basket: Coordinates(lat: 58.98300, lng: 26.25700)),
            ]
            let course = CreateCourseRequest(name: "Journey DiscGolfPark", location: Location(lat: 58.98068, lng: 26.25523), holes: holes)
            let refused = await #expect(throws: HuddleError.self) { try await player.send(CatalogAPI.createCourse, body: course) }
            #expect(refused?.status == 403)
            let created = try await admin.send(CatalogAPI.createCourse, body: course)
            #expect(created.par == 6 && created.holeCount == 2)
            let navigation = try await player.send(
                CatalogAPI.navigation, created.id,
                query: Query.place(Coordinates(lat: 58.98068, lng: 26.25523)) + CatalogAPI.navigationHole(1))
            #expect(navigation.tee.distanceMeters == 0 && navigation.nextTee?.hole == 2)
            // The wire: internal routes are not reachable through the gateway.
            #expect(try await gateway.call(CatalogAPI.Internal.team, team.id).status == 404)
        }
    }

    @Test(
        "next week's game: two players answer, one drops out, the manager asks for a substitute, an outsider fills in",
        arguments: StackTests.stores)
    func substituteStory(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let manager = try await Self.player(gateway, "Maria Manager")
            let pete = try await Self.player(gateway, "Pete Player"), paula = try await Self.player(gateway, "Paula Player")
            let outsider = try await Self.player(gateway, "Otto Outsider")
            let request = CreateTeamRequest(
                name: "Tallinn Spikers", sport: .volleyball, privacy: .protected, location: Location(lat: 59.437, lng: 24.7536),
                ageGroup: .adult, gender: .coed, skill: .intermediate)
            let team = try await manager.send(CatalogAPI.createTeam, body: request)
            _ = try await manager.send(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [try await pete.userID, try await paula.userID]))
            for player in [pete, paula] { _ = try await player.send(CatalogAPI.joinTeam, team.id) }

            let nextWeek = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 7 * 24 * 3600).rounded(.down))
            let game = try await manager.send(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: nextWeek, capacity: 6))
            let pending = try await pete.send(GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.pending))
            #expect(pending.items.map(\.id) == [game.id] && pending.items.first?.teamName == "Tallinn Spikers")

            for player in [pete, paula] {
                _ = try await player.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going))
            }
            let dropped = try await paula.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .notGoing))
            // The manager plays too: going from the start.
            #expect(dropped.goingCount == 2)

            // Outside the protected team, a join is only a request until substitutes are wanted.
            let beforeCall = try await outsider.send(GamesAPI.game, game.id)
            #expect(beforeCall.location == nil && beforeCall.subsNeeded == 0)
            #expect(try await manager.send(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1)).subsNeeded == 1)
            let joined = try await outsider.send(GamesAPI.joinGame, game.id)
            #expect(joined.status == .going && joined.substitute && joined.subsNeeded == 0 && joined.goingCount == 3)

            let roster = try await manager.send(GamesAPI.roster, game.id).items
            #expect(roster.map(\.name) == ["Maria Manager", "Pete Player", "Otto Outsider", "Paula Player"])
            #expect(roster.map(\.status) == [.going, .going, .going, .notGoing])
            let seen = try await outsider.send(GamesAPI.game, game.id)
            #expect(seen.location == team.location && seen.myStatus == .going)
            #expect(try await outsider.send(GamesAPI.myGames, query: Query.mineScope(.mine)).items.map(\.id) == [game.id])
        }
    }

    @Test(
        "two players on two sockets through the gateway play nine holes to the end, see one card, and the record shows in stats",
        arguments: StackTests.stores)
    func liveRound(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let admin = try await Self.administrator(gateway)
            let course = try await Self.nineHoleCourse(
                "Journey DiscGolfPark", at: Location(lat: 58.98068, lng: 26.25523), par: { $0 == 5 ? 4 : 3 }, by: admin, through: gateway)
            let ann = try await gateway.register(name: "Ann Anhyzer"), ben = try await gateway.register(name: "Ben Backhand")
            let started = try await gateway.call(
                GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: [.init(userId: ben.user.id)]),
                token: ann.accessToken)
            #expect(started.status == 201)
            let card = try started.decode(Scorecard.self)
            let annPhone = try await LiveSocket.connect(baseURL: gateway.baseURL, round: card.id, token: ann.accessToken)
            let benPhone = try await LiveSocket.connect(baseURL: gateway.baseURL, round: card.id, token: ben.accessToken)
            #expect(try await benPhone.waitFor { $0.type == .card })

            // Each phone keeps its own player's score, hole by hole.
            let annStrokes = [3, 2, 3, 3, 4, 2, 3, 3, 3], benStrokes = [4, 3, 3, 4, 5, 3, 3, 4, 3]
            for hole in 1...9 {
                try annPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: hole, strokes: annStrokes[hole - 1]))
                try benPhone.send(ScoreUpdate(playerId: card.players[1].playerId, hole: hole, strokes: benStrokes[hole - 1]))
            }
            // Every score is a change, a par as much as any other.
            let expectedChanges = annStrokes.count + benStrokes.count
            for phone in [annPhone, benPhone] { #expect(try await phone.waitFor { $0.version == expectedChanges }) }
            let finish = try await gateway.call(GamesAPI.finishRound, card.id, token: ben.accessToken)
            #expect(finish.status == 200)
            for phone in [annPhone, benPhone] { #expect(try await phone.waitFor { $0.type == .finished }) }

            let final = try finish.decode(Scorecard.self)
            #expect(final.players.map(\.total) == [26, 32] && final.players.map(\.toPar) == [-2, 4])
            #expect(card.applying(annPhone.messages) == final)
            #expect(card.applying(benPhone.messages) == final)
            await annPhone.close()
            await benPhone.close()

            let stats = try await gateway.call(GamesAPI.stats, ann.user.id, token: ben.accessToken).decode(PlayerStats.self)
            #expect(stats.roundsPlayed == 1)
            #expect(stats.courses.first?.best == PersonalRecord(total: 26, toPar: -2, date: final.finishedAt!, roundId: card.id))
            #expect(stats.scores.birdies == 2 && stats.scores.pars == 7)
        }
    }

    @Test(
        "a player new to a city finds volleyball games near them for their group, nearest first, one needing a substitute, and joins it",
        arguments: StackTests.stores)
    func findAndJoin(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let organizer = try await Self.player(gateway, "Olga Organiser"), manager = try await Self.player(gateway, "Mia Manager")
            let newcomer = try await Self.player(gateway, "Nina Newcomer")
            let nextWeek = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 7 * 24 * 3600).rounded(.down))
            // Around Geelong, where the demo has no games: games 1, 3 and 6 km north of where Nina stands.
            let here = Coordinates(lat: -38.1499, lng: 144.3617)
            func north(_ km: Double) -> Location { Location(lat: here.lat + km / 111.32, lng: here.lng) }
            func pickup(_ km: Double, sport: Sport = .volleyball, ageGroup: AgeGroup = .adult) async throws -> Game {
                let request = CreateGameRequest(
                    kind: .pickup, startsAt: nextWeek, location: north(km), sport: sport, privacy: .public, ageGroup: ageGroup,
                    gender: .coed, skill: .beginner, capacity: 12)
                return try await organizer.send(GamesAPI.createGame, body: request)
            }
            let nearest = try await pickup(1), farthest = try await pickup(6)
            _ = try await pickup(2, sport: .soccer)
            _ = try await pickup(2.5, ageGroup: .youth)
            let team = try await manager.send(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Casey Casuals", sport: .volleyball, privacy: .protected, location: north(3), ageGroup: .adult, gender: .coed,
                    skill: .any))
            let teamGame = try await manager.send(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: nextWeek))
            _ = try await manager.send(GamesAPI.askForSubstitutes, teamGame.id, body: SubstitutesRequest(needed: 1))

            let query =
                Query.place(Coordinates(lat: here.lat, lng: here.lng)) + Query.radiusKm(20) + Query.sport(.volleyball)
                + SearchAPI.ageGroup(.adult) + SearchAPI.skill(.beginner) + SearchAPI.gender(.female)
            let found = try await poll {
                try await newcomer.send(SearchAPI.games, query: query).items
            } until: {
                $0.count == 3 && $0.contains { $0.item.subsNeeded == 1 }
            }
            #expect(found.map(\.item.id) == [nearest.id, teamGame.id, farthest.id])
            #expect(found.map(\.distanceMeters) == found.map(\.distanceMeters).sorted())
            let needing = try #require(found.first { $0.item.subsNeeded > 0 })
            #expect(needing.item.location == nil && (2900...3100).contains(needing.distanceMeters))
            let needsPlayers = query + SearchAPI.needsPlayers(true)
            #expect(try await newcomer.send(SearchAPI.games, query: needsPlayers).items.map(\.item.id) == [teamGame.id])

            let joined = try await newcomer.send(GamesAPI.joinGame, needing.item.id)
            #expect(joined.status == .going && joined.substitute && joined.subsNeeded == 0)
            // Filled: it no longer needs players.
            #expect(try await eventually { try await newcomer.send(SearchAPI.games, query: needsPlayers).items.isEmpty })
        }
    }

    /// The document clients are generated from must describe routes that exist.
    @Test("every operation in /openapi.json reaches a route of the running stack")
    func openAPIMatchesRoutes() async throws {
        try await Self.withStack(store: .sqlite) { gateway in
            let session = try await gateway.register()
            let document = try JSONSerialization.jsonObject(with: try await gateway.raw(.GET, "/openapi.json").body) as? [String: Any]
            let paths = try #require(document?["paths"] as? [String: [String: Any]])
            #expect(paths.count >= 15)
            for (template, operations) in paths {
                let path = template.replacingOccurrences(of: "{id}", with: session.user.id.description)
                    .replacingOccurrences(of: "{provider}", with: "facebook")
                for method in operations.keys {
                    // Anonymous, so that routing (not the token check) decides: a route that exists
                    // answers 401 or a validation problem, a missing one NO_SUCH_ROUTE.
                    let response = try await gateway.raw(HTTPMethod(rawValue: method.uppercased()), path, rawBody: Data("{}".utf8))
                    #expect(response.problem?.code != "NO_SUCH_ROUTE", "\(method.uppercased()) \(template)")
                    #expect(response.status != 405, "\(method.uppercased()) \(template)")
                    #expect(response.status < 500 || template == "/health", "\(method.uppercased()) \(template): \(response.status)")
                }
            }
            // And an undocumented path is told apart.
            #expect(try await gateway.raw(.GET, "/v1/users/me/nothing-here").problem?.code == "NO_SUCH_ROUTE")
        }
    }
}
