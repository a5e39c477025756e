public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`betting`) run it.
    public static let betting = ModuleBuilder(
        .betting, migrate: { try await migrateStore(.betting, reader: $0, logger: $1, BettingMigrations.all) }
    ) {
        try await buildBettingService(reader: $0, dependencies: $1)
    }
}

/// Builds the betting service: fixtures from games' match events with the provider's 1X2 odds, a
/// wallet per user on a double-entry ledger, a server-side slip, tickets placed exactly once per
/// idempotency key, settled from match results.
///
/// Configuration keys: the skeleton's (`betting.http.*`, `betting.db.url`, `betting.revocation.poll.ms`,
/// `internal.keys`, `betting.internal.key`) and `BettingSettings`' (`betting.wallet.*`, `betting.stake.*`, `betting.selections.max`,
/// `betting.payout.max`, `betting.postponed.*`, `betting.fixtures.reuse.ms`, `betting.odds.*`).
/// Betting consumes games' match events: list `betting` in `games.events.subscribers`. It publishes
/// tickets placed and settled to `betting.events.subscribers` (notify, chat).
public func buildBettingService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.betting, reader: reader, dependencies: dependencies, migrations: BettingMigrations.all)
    let database = service.database
    let settings = try BettingSettings(reader: reader)
    let now = dependencies.effects.now
    let ledger = Ledger()
    let fixtureStore = SQLFixtureStore()
    let ticketStore = SQLTicketStore()
    let wallets = Wallets(database: database, ledger: ledger, settings: settings, now: now)
    let settler = Settler(tickets: ticketStore, ledger: ledger, settings: settings, now: now)
    let erasure = AccountErasure(store: SQLErasureStore(tickets: ticketStore), tickets: ticketStore, ledger: ledger, now: now)
    let fixtures = Fixtures(database: database, store: fixtureStore, settler: settler, erasure: erasure, settings: settings, now: now)
    let slipStore = SQLSlipStore()
    let slips = Slips(database: database, store: slipStore, fixtures: fixtures, settings: settings, now: now)
    let tickets = Tickets(
        database: database, fixtures: fixtureStore,
        recentFixtures: RecentFixtures(
            database: database, store: fixtureStore, maxAge: settings.fixturesReuse),
        store: ticketStore, slips: slipStore, ledger: ledger, wallets: wallets, settings: settings, now: now)

    service.add(
        FixturesController(fixtures: fixtures, today: now), WalletController(wallets: wallets), SlipController(slips: slips),
        TicketsController(tickets: tickets), BettingInternalController(wallets: wallets))
    service.exportPersonalData(BettingPersonalData.export)
    try service.publishEvents()
    service.retain(RetentionRule("oddschanges", table: "odds_changes", column: "changed_at", defaultDays: 30))
    service.consumeEvents(
        BettingEvents.handlers, with: EventConsumer(database: database) { event, sql in try await fixtures.apply(event, on: sql) })
    service.beforeServerStarts { try await wallets.openSystemAccounts() }
    service.addServices(
        PostponedSweeper(
            interval: settings.postponedSweep, database: database, store: fixtureStore,
            settler: settler, now: now, logger: dependencies.logger))
    if let provider = settings.oddsProvider {
        service.addServices(
            OddsPoller(
                settings: .init(), client: OddsClient(settings: provider, http: dependencies.providerClient), database: database,
                store: fixtureStore,
                poll: LeasedPoll(
                    lease: FeedLease(database: database, name: "odds", duration: FeedLease.takeover), interval: settings.oddsPoll),
                now: now, logger: dependencies.logger))
    }
    return try service.application()
}
