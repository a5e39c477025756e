public import Configuration
import Contracts
import Foundation
public import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceClients
public import ServiceKit
import ServiceLifecycle

/// Builds the games service: team, league and pick-up games, rosters, waiting lists and substitutes;
/// disc golf rounds with a live scorecard (WebSocket), completed rounds and personal records.
///
/// Configuration keys (besides the shared `games.http.*`, `games.db.url`, `internal.token`):
/// - `games.events.subscribers` — modules that receive games' events (e.g. `search,notify`);
///   `games.events.poll.ms`, `games.events.retry.max.ms` — see `OutboxDispatcher.Settings`.
/// - `games.revocation.poll.ms` — how often revoked sessions are fetched from auth (default 500).
/// Games consumes catalog's team events at `/internal/events`: list `games` in `catalog.events.subscribers`.
public func buildGamesService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    let logger = dependencies.logger
    let database = try await Database.open(url: reader.databaseURL(for: .games), logger: logger)
    let auth = AuthClient(dependencies: dependencies)
    let verifier = TokenVerifier(source: auth)
    let games = Games(
        database: database, games: SQLGameStore(), roster: SQLRosterStore(), catalog: CatalogClient(dependencies: dependencies),
        auth: auth)
    let teamSync = TeamSync(games: games)
    let roundStore = SQLRoundStore()
    let live = LiveRounds(logger: logger) { round, after in
        try await database.read { sql in try await roundStore.changes(of: round, after: after, on: sql) }
    }
    let rounds = Rounds(
        database: database, rounds: roundStore, catalog: CatalogClient(dependencies: dependencies), auth: auth, live: live)

    let router = Router<HuddleRequestContext>.huddle(
        module: .games, verifier: verifier, dependencies: dependencies, healthChecks: ["database": database.healthCheck])
    router.add(middleware: IdempotencyMiddleware(database: database))
    router.addRoutes(GamesController(games: games).endpoints, atPath: "/v1/games")
    let roundsController = RoundsController(rounds: rounds)
    router.addRoutes(roundsController.endpoints, atPath: "/v1/rounds")
    router.addRoutes(roundsController.stats, atPath: "/v1/users")
    let liveRouter = Router(context: LiveRequestContext.self)
    LiveController(rounds: rounds, live: live, verifier: verifier).add(to: liveRouter)
    let internalRoutes = router.internalGroup(token: dependencies.internalToken)
    internalRoutes.addEventConsumer(EventConsumer(database: database) { event, sql in try await teamSync.apply(event, on: sql) })
    internalRoutes.get("snapshots/games") { request, _ in JSONResponse(try await games.snapshot(page: try PageRequest(request))) }

    var app = Application(
        router: router,
        server: .http1WebSocketUpgrade(
            webSocketRouter: liveRouter, configuration: .init(ws: .init(maxFrameSize: LiveController.maxMessageSize))),
        configuration: reader.serverConfiguration(for: .games),
        onServerRunning: dependencies.announce(.games), logger: logger)
    app.addServices(
        database,
        RevocationPoller(verifier: verifier, interval: reader.milliseconds("games.revocation.poll.ms", default: 500), logger: logger),
        OutboxDispatcher(
            database: database, transport: EventsClient(dependencies: dependencies),
            settings: try .init(reader: reader, module: .games), logger: logger),
        RoundNotifications(database: database, live: live, logger: logger))
    app.beforeServerStarts { try await database.migrate(GamesMigrations.all, logger: logger) }
    return app
}
