public import Configuration
public import Hummingbird
public import ServiceKit
import Contracts
import Foundation
import Logging
import ServiceClients
import ServiceLifecycle

/// Builds the catalog service: sports, leagues, teams and membership, disc golf courses, venues, news.
///
/// Configuration keys (besides the shared `catalog.http.*`, `catalog.db.url`, `internal.token`):
/// - `catalog.events.subscribers` — modules that receive catalog's events (e.g. `games,search`);
///   `catalog.events.poll.ms`, `catalog.events.retry.max.ms` — see `OutboxDispatcher.Settings`.
/// - `catalog.weather.url` — Open-Meteo style provider, default `https://api.open-meteo.com`;
///   `catalog.weather.timeout.ms` (default 1500), `catalog.weather.cache.ms` (default 600000).
/// - `catalog.news.url` — a NewsAPI-style feed to poll; no polling when absent;
///   `catalog.news.sport` (default `soccer`), `catalog.news.poll.ms` (default 900000).
public func buildCatalogService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    let logger = dependencies.logger
    let database = try await Database.open(url: reader.databaseURL(for: .catalog), logger: logger)
    let auth = AuthClient(dependencies: dependencies)
    let verifier = TokenVerifier(source: auth)
    let teams = Teams(database: database, teams: SQLTeamStore(), auth: auth)
    let leagueStore = SQLLeagueStore()
    let leagues = Leagues(database: database, leagues: leagueStore, teams: teams)
    let places = Places(database: database, courses: SQLCourseStore(), venues: SQLVenueStore())
    let news = News(database: database, store: SQLNewsStore())
    let weather = WeatherProvider(
        settings: .init(
            baseURL: reader.text("catalog.weather.url", default: "https://api.open-meteo.com"),
            timeout: reader.milliseconds("catalog.weather.timeout.ms", default: 1500),
            cacheLifetime: reader.milliseconds("catalog.weather.cache.ms", default: 600_000)),
        httpClient: dependencies.providerClient, logger: logger)

    let router = Router<HuddleRequestContext>.huddle(
        module: .catalog, verifier: verifier, dependencies: dependencies, healthChecks: ["database": database.healthCheck])
    router.add(middleware: IdempotencyMiddleware(database: database))
    PlacesController(places: places, weather: weather).add(to: router)
    router.addRoutes(TeamsController(teams: teams).endpoints, atPath: "/v1/teams")
    router.addRoutes(LeaguesController(leagues: leagues).endpoints, atPath: "/v1/leagues")
    router.addRoutes(NewsController(news: news).endpoints, atPath: "/v1/news")
    router.internalGroup(token: dependencies.internalToken)
        .addRoutes(InternalController(teams: teams, leagues: leagueStore, places: places, news: news).endpoints)

    var app = Application(
        router: router, configuration: reader.serverConfiguration(for: .catalog),
        onServerRunning: dependencies.announce(.catalog), logger: logger)
    app.addServices(
        database,
        RevocationPoller(verifier: verifier, interval: reader.milliseconds("catalog.revocation.poll.ms", default: 500), logger: logger),
        OutboxDispatcher(
            database: database, transport: EventsClient(dependencies: dependencies),
            settings: try .init(reader: reader, module: .catalog), logger: logger))
    if let feed = reader.text("catalog.news.url"), !feed.isEmpty {
        let sport = Sport(rawValue: reader.text("catalog.news.sport", default: Sport.soccer.rawValue)) ?? .soccer
        app.addServices(
            NewsPoller(
                settings: .init(feedURL: feed, sport: sport, interval: reader.milliseconds("catalog.news.poll.ms", default: 900_000)),
                dependencies: dependencies))
    }
    app.beforeServerStarts { try await database.migrate(CatalogMigrations.all, logger: logger) }
    return app
}
