public import Configuration
import Contracts
import Foundation
public import Hummingbird
import ServiceClients
public import ServiceKit

/// Builds the catalog service: sports, leagues, teams and membership, disc golf courses, venues, news.
///
/// Configuration keys (besides the skeleton's `catalog.http.*`, `catalog.db.url`,
/// `catalog.revocation.poll.ms`, `catalog.events.*` and `internal.token`):
/// - `catalog.weather.url` — Open-Meteo style provider, default `https://api.open-meteo.com`;
///   `catalog.weather.timeout.ms` (default 1500), `catalog.weather.cache.ms` (default 600000).
/// - `catalog.news.url` — a NewsAPI-style feed to poll; no polling when absent;
///   `catalog.news.sport` (default `soccer`), `catalog.news.poll.ms` (default 900000).
public func buildCatalogService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    var service = try await ServiceSkeleton(.catalog, reader: reader, dependencies: dependencies, migrations: CatalogMigrations.all)
    let database = service.database
    let now: @Sendable () -> Date = Date.init
    let teams = Teams(database: database, teams: SQLTeamStore(), auth: AuthClient(dependencies: dependencies), now: now)
    let leagues = Leagues(database: database, leagues: SQLLeagueStore(), teams: teams, now: now)
    let places = Places(database: database, courses: SQLCourseStore(), venues: SQLVenueStore())
    let news = News(database: database, store: SQLNewsStore())
    let weather = WeatherProvider(
        settings: .init(
            baseURL: reader.text("catalog.weather.url", default: "https://api.open-meteo.com"),
            timeout: reader.milliseconds("catalog.weather.timeout.ms", default: 1500),
            cacheLifetime: reader.milliseconds("catalog.weather.cache.ms", default: 600_000)),
        httpClient: dependencies.providerClient, logger: dependencies.logger)

    service.add(
        PlacesController(places: places, weather: weather), TeamsController(teams: teams), LeaguesController(leagues: leagues),
        NewsController(news: news), CatalogInternalController(teams: teams, leagues: leagues, places: places, news: news))
    try service.publishEvents()
    if let feed = reader.text("catalog.news.url"), !feed.isEmpty {
        let sport = Sport(rawValue: reader.text("catalog.news.sport", default: Sport.soccer.rawValue)) ?? .soccer
        service.addServices(
            NewsPoller(
                settings: .init(feedURL: feed, sport: sport, interval: reader.milliseconds("catalog.news.poll.ms", default: 900_000)),
                dependencies: dependencies))
    }
    return try service.application()
}
