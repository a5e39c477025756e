public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import ServerContracts
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`purchases`) run it.
    public static let purchases = ModuleBuilder(
        .purchases, migrate: { try await migrateStore(.purchases, reader: $0, logger: $1, PurchasesMigrations.all) }
    ) {
        try await buildPurchasesService(reader: $0, dependencies: $1)
    }
}

/// Builds the purchases service: the products the operator sells, App Store transactions verified
/// on the server and credited to the player who bought them, and the App Store's notifications
/// (renewals, expiries, refunds) applied once each. What each player holds is published to the
/// services that enforce the gates (list them in `purchases.events.subscribers`). Auth's account
/// deletions leave a deleted player's purchases under a pseudonym (list `purchases` in
/// `auth.events.subscribers`).
///
/// Configuration keys: the skeleton's (`purchases.http.*`, `purchases.db.url`, `purchases.revocation.poll.ms`,
/// `purchases.events.*`, `internal.keys`, `purchases.internal.key`) and `PurchasesSettings`' (`purchases.products`, `purchases.appstore.*`).
public func buildPurchasesService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    let settings = try await PurchasesSettings(reader: reader)
    var service = try await ServiceSkeleton(.purchases, reader: reader, dependencies: dependencies, migrations: PurchasesMigrations.all)
    var serverAPI: AppStoreServerAPI?
    if let api = settings.serverAPI { serverAPI = try await AppStoreServerAPI(settings: api, http: dependencies.providerClient) }
    let purchases = Purchases(
        database: service.database, store: SQLPurchaseStore(), verifier: SignedDataVerifier(roots: settings.roots), settings: settings,
        serverAPI: serverAPI,
        logger: dependencies.logger, now: dependencies.effects.now)
    service.add(PurchasesController(purchases: purchases))
    try service.publishEvents()
    service.exportPersonalData(PurchasesPersonalData.export)
    service.consumeEvents(
        PurchasesEvents.handlers,
        with: EventConsumer(database: service.database) { event, sql in try await PurchasesEvents.handlers.step(for: event)?(purchases, sql)
        })
    return try service.application()
}
