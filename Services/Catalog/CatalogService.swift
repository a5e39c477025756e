public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import ServerContracts
import ServiceClients
import ServiceFeatures
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`catalog`) run it.
    public static let catalog = ModuleBuilder(
        .catalog, migrate: { try await migrateStore(.catalog, reader: $0, logger: $1, CatalogMigrations.all) }
    ) {
        try await buildCatalogService(reader: $0, dependencies: $1)
    }
}

/// Builds the catalog service: sports, leagues, teams and membership, disc golf courses, venues, news.
///
/// Configuration keys: the skeleton's (`catalog.http.*`, `catalog.db.url`, `catalog.revocation.poll.ms`,
/// `catalog.events.*`, `internal.keys`, `catalog.internal.key`), `CatalogSettings`' (`catalog.weather.*`, `catalog.news.*`) and
/// the purchases gates (`purchases.gates`, `purchases.products`: `EntitlementGates`). Catalog
/// consumes purchases' and auth's events: list `catalog` in `purchases.events.subscribers` and
/// `auth.events.subscribers`.
public func buildCatalogService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.catalog, reader: reader, dependencies: dependencies, migrations: CatalogMigrations.all)
    let settings = try CatalogSettings(reader: reader)
    let database = service.database
    let now = dependencies.effects.now
    let gatekeeper = Gatekeeper(gates: try EntitlementGates(reader: reader), now: now)
    let teams = Teams(
        database: database, teams: SQLTeamStore(now: now), auth: AuthClient(dependencies: dependencies), gatekeeper: gatekeeper,
        filter: ContentFilter(reader: reader), logos: Logos(media: MediaClient(dependencies: dependencies), logger: dependencies.logger),
        now: now)
    let leagueStore = SQLLeagueStore(now: now)
    let leagues = Leagues(database: database, leagues: leagueStore, teams: teams, now: now)
    let events = CatalogEvents(gatekeeper: gatekeeper, erasure: AccountErasure(teams: teams, leagues: leagueStore))
    let places = Places(database: database, courses: SQLCourseStore(now: now), venues: SQLVenueStore(now: now))
    let news = News(database: database, store: SQLNewsStore(now: now))
    let weather = WeatherProvider(
        settings: settings.weather, httpClient: dependencies.providerClient, logger: dependencies.logger, now: now)

    service.add(
        PlacesController(places: places, weather: weather), TeamsController(teams: teams), LeaguesController(leagues: leagues),
        NewsController(news: news), CatalogInternalController(teams: teams, leagues: leagues, places: places, news: news),
        CatalogModerationController(teams: teams, leagues: leagues))
    try service.publishEvents()
    service.exportPersonalData(CatalogPersonalData.export)
    service.consumeEvents(
        CatalogEvents.handlers,
        with: EventConsumer(database: database) { event, sql in try await CatalogEvents.handlers.step(for: event)?(events, sql) })
    if let feed = settings.news {
        service.addServices(
            NewsPoller(
                settings: feed, news: news, database: database,
                poll: LeasedPoll(lease: FeedLease(database: database, name: "news", duration: FeedLease.takeover), interval: feed.interval),
                now: now,
                httpClient: dependencies.providerClient, logger: dependencies.logger))
    }
    return try service.application()
}
