public import Configuration
import Contracts
import Foundation
public import Hummingbird
import Logging
import ServiceClients
public import ServiceKit
import ServiceLifecycle

/// Builds the search service: games, teams, courses and venues near a place, and players by name,
/// from a read model that the events of auth, catalog and games keep current (list `search` in
/// their `<module>.events.subscribers`). It never reads their databases.
///
/// Configuration keys (besides the shared `search.http.*`, `search.db.url`, `internal.token`):
/// `search.revocation.poll.ms` — how often revoked sessions are fetched from auth (default 500).
public func buildSearchService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    let logger = dependencies.logger
    let database = try await Database.open(url: reader.databaseURL(for: .search), logger: logger)
    let verifier = TokenVerifier(source: AuthClient(dependencies: dependencies))
    let places = SQLPlaceStore(kind: database.kind)
    let players = SQLPlayerStore(kind: database.kind)
    let indexer = Indexer(places: places, players: players)

    let router = Router<HuddleRequestContext>.huddle(
        module: .search, verifier: verifier, dependencies: dependencies, healthChecks: ["database": database.healthCheck])
    router.addRoutes(SearchController(search: Search(database: database, places: places, players: players)).endpoints, atPath: "/v1/search")
    let reindex = Reindex(database: database, places: places, players: players, snapshots: SnapshotClient(dependencies: dependencies))
    let internalRoutes = router.internalGroup(token: dependencies.internalToken)
    internalRoutes.addEventConsumer(EventConsumer(database: database, decode: Indexer.change) { try await indexer.apply($0, on: $1) })
    // Rebuilds the index from the owners' snapshots; answers what it read.
    internalRoutes.post("reindex") { _, _ in JSONResponse(try await reindex.run()) }

    var app = Application(
        router: router, configuration: reader.serverConfiguration(for: .search),
        onServerRunning: dependencies.announce(.search), logger: logger)
    app.addServices(
        database,
        RevocationPoller(verifier: verifier, interval: reader.milliseconds("search.revocation.poll.ms", default: 500), logger: logger))
    app.beforeServerStarts { try await database.migrate(SearchMigrations.all, logger: logger) }
    return app
}
