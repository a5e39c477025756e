public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import ServiceClients
import ServiceFeatures
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`search`) run it.
    public static let search = ModuleBuilder(
        .search, migrate: { try await migrateStore(.search, reader: $0, logger: $1, SearchMigrations.all) }
    ) {
        try await buildSearchService(reader: $0, dependencies: $1)
    }
}

/// Builds the search service: games, teams, courses and venues near a place, and players by name,
/// from a read model that the events of auth, catalog, games and purchases keep current (list
/// `search` in their `<module>.events.subscribers`). It never reads their databases.
///
/// Configuration keys: the skeleton's (`search.http.*`, `search.db.url`, `search.revocation.poll.ms`,
/// `internal.keys`, `search.internal.key`), the purchases gates (`purchases.gates`, `purchases.products`: `EntitlementGates`)
/// and the geocoder's for searches by postcode (`SearchSettings`).
public func buildSearchService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.search, reader: reader, dependencies: dependencies, migrations: SearchMigrations.all)
    let database = service.database
    let now = dependencies.effects.now
    let places = SQLPlaceStore(kind: database.kind)
    let players = SQLPlayerStore(kind: database.kind)
    let gatekeeper = Gatekeeper(gates: try EntitlementGates(reader: reader), now: now)
    let indexer = Indexer(places: places, players: players, gatekeeper: gatekeeper)
    let reindex = Reindex(database: database, places: places, players: players, snapshots: SnapshotClient(dependencies: dependencies))

    let geocoder = PostcodeGeocoder(
        settings: SearchSettings(reader: reader).geocoding, httpClient: dependencies.providerClient, logger: dependencies.logger)
    service.add(
        SearchController(
            search: Search(database: database, places: places, players: players, gatekeeper: gatekeeper, now: now), geocoder: geocoder),
        SearchInternalController(reindex: reindex))
    service.exportPersonalData(SearchPersonalData.export)
    service.consumeEvents(
        SearchEvents.handlers, with: EventConsumer(database: database, decode: Indexer.change) { try await indexer.apply($0, on: $1) })
    return try service.application()
}
