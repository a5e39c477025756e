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
/// Professional football matches from API-Football v3, versioned, with a live socket.
///
/// Configuration keys: the skeleton's (`games.http.*`, `games.db.url`, `games.revocation.poll.ms`,
/// `games.events.*`, `internal.token`). Games consumes catalog's team events: list `games` in
/// `catalog.events.subscribers`. Matches:
/// - `games.matches.provider.url` — API-Football v3's base URL (`https://v3.football.api-sports.io`);
///   no polling when absent; `games.matches.provider.key` (`x-apisports-key`),
///   `games.matches.provider.timeout.ms` (default 5000).
/// - `games.matches.leagues` — league ids followed, comma-separated; every league when empty.
/// - `games.matches.poll.live.ms` (default 15000, the provider's update period; also the
///   `Cache-Control: max-age` of match answers) and `games.matches.poll.day.ms` (default 600000:
///   how often today's and tomorrow's fixtures are listed again).
public func buildGamesService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    var service = try await ServiceSkeleton(.games, reader: reader, dependencies: dependencies, migrations: GamesMigrations.all)
    let database = service.database
    let now: @Sendable () -> Date = Date.init
    let auth = AuthClient(dependencies: dependencies)
    let catalog = CatalogClient(dependencies: dependencies)
    let games = Games(database: database, games: SQLGameStore(), roster: SQLRosterStore(), catalog: catalog, auth: auth, now: now)
    let roundStore = SQLRoundStore()
    let live = LiveRounds(logger: dependencies.logger) { round, after in
        try await database.read { sql in try await roundStore.changes(of: round, after: after, on: sql) }
    }
    let rounds = Rounds(database: database, rounds: roundStore, catalog: catalog, auth: auth, now: now)
    let matchStore = SQLMatchStore()
    let liveMatches = LiveMatches(logger: dependencies.logger) { match, after in
        try await database.read { sql in try await matchStore.changes(of: match, after: after, on: sql) }
    }
    let livePoll = reader.milliseconds("games.matches.poll.live.ms", default: 15_000)
    let matches = Matches(
        database: database, store: matchStore, maxAgeSeconds: max(1, Int(livePoll.seconds.rounded(.up))))

    service.add(
        GamesController(games: games), RoundsController(rounds: rounds), MatchesController(matches: matches, today: now),
        GamesInternalController(games: games))
    let teamSync = TeamSync(games: games, now: now)
    service.consumeEvents(
        TeamSync.handlers, with: EventConsumer(database: database) { event, sql in try await teamSync.apply(event, on: sql) })
    try service.publishEvents()
    service.addServices(
        ChangeNotifications(channel: ChangeChannel.rounds, database: database, live: live, logger: dependencies.logger),
        ChangeNotifications(channel: ChangeChannel.matches, database: database, live: liveMatches, logger: dependencies.logger))
    if let provider = reader.text("games.matches.provider.url"), !provider.isEmpty {
        let client = APIFootballClient(
            settings: .init(
                baseURL: provider, key: reader.text("games.matches.provider.key", isSecret: true) ?? "",
                timeout: reader.milliseconds("games.matches.provider.timeout.ms", default: 5000)),
            http: dependencies.providerClient)
        let leagues = Set(
            reader.text("games.matches.leagues", default: "").split(separator: ",").compactMap { Int(String($0).trimmingBlanks) })
        let dayPoll = reader.milliseconds("games.matches.poll.day.ms", default: 600_000)
        service.addServices(
            MatchPoller(
                settings: .init(liveInterval: livePoll, dayInterval: dayPoll, leagues: leagues), client: client, matches: matches,
                lease: FeedLease(database: database, name: "football", duration: max(3 * livePoll.seconds, 10)), now: Date.init,
                logger: dependencies.logger))
    }
    service.add(LiveController(rounds: rounds, live: live), MatchLiveController(matches: matches, live: liveMatches))
    return try service.application(
        server: .http1WebSocketUpgrade(
            webSocketRouter: service.router,
            configuration: .init(ws: LiveSockets.configuration(maxFrameSize: LiveController.maxMessageSize))))
}
