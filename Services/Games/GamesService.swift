public import Configuration
import Contracts
import Foundation
public import Hummingbird
import HummingbirdWebSocket
import ServiceClients
public import ServiceKit

/// Builds the games service: team, league and pick-up games, rosters, waiting lists and substitutes;
/// disc golf rounds with a live scorecard (WebSocket), completed rounds and personal records.
///
/// Configuration keys: the skeleton's (`games.http.*`, `games.db.url`, `games.revocation.poll.ms`,
/// `games.events.*`, `internal.token`). Games consumes catalog's team events: list `games` in
/// `catalog.events.subscribers`.
public func buildGamesService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    var service = try await ServiceSkeleton(.games, reader: reader, dependencies: dependencies, migrations: GamesMigrations.all)
    let database = service.database
    let auth = AuthClient(dependencies: dependencies)
    let catalog = CatalogClient(dependencies: dependencies)
    let games = Games(database: database, games: SQLGameStore(), roster: SQLRosterStore(), catalog: catalog, auth: auth)
    let roundStore = SQLRoundStore()
    let live = LiveRounds(logger: dependencies.logger) { round, after in
        try await database.read { sql in try await roundStore.changes(of: round, after: after, on: sql) }
    }
    let rounds = Rounds(database: database, rounds: roundStore, catalog: catalog, auth: auth, live: live)

    service.add(GamesController(games: games), RoundsController(rounds: rounds), GamesInternalController(games: games))
    let teamSync = TeamSync(games: games)
    service.consumeEvents(with: EventConsumer(database: database) { event, sql in try await teamSync.apply(event, on: sql) })
    try service.publishEvents()
    service.addServices(RoundNotifications(database: database, live: live, logger: dependencies.logger))
    let liveRouter = Router(context: LiveRequestContext.self)
    LiveController(rounds: rounds, live: live, verifier: service.verifier).add(to: liveRouter)
    return try service.application(
        server: .http1WebSocketUpgrade(
            webSocketRouter: liveRouter, configuration: .init(ws: .init(maxFrameSize: LiveController.maxMessageSize))))
}
