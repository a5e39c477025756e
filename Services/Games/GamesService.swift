public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import HummingbirdWebSocket
import ServiceClients
import ServiceFeatures
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`games`) run it.
    public static let games = ModuleBuilder(
        .games, migrate: { try await migrateStore(.games, reader: $0, logger: $1, GamesMigrations.all) }
    ) {
        try await buildGamesService(reader: $0, dependencies: $1)
    }
}

/// Builds the games service: team, league and pick-up games, rosters, waiting lists and substitutes;
/// disc golf rounds with a live scorecard (WebSocket), completed rounds and personal records.
///
/// Professional football matches from API-Football v3, versioned, with a live socket (`Matches/`).
///
/// Configuration keys: the skeleton's (`games.http.*`, `games.db.url`, `games.revocation.poll.ms`,
/// `games.events.*`, `internal.keys`, `games.internal.key`), `GamesSettings`' (`games.matches.*`) and the purchases gates
/// (`purchases.gates`, `purchases.products`: `EntitlementGates`). Games consumes catalog's team events
/// and purchases' entitlement events: list `games` in `catalog.events.subscribers` and
/// `purchases.events.subscribers`.
public func buildGamesService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.games, reader: reader, dependencies: dependencies, migrations: GamesMigrations.all)
    let settings = GamesSettings(reader: reader)
    let database = service.database
    let now = dependencies.effects.now
    let auth = AuthClient(dependencies: dependencies)
    let catalog = CatalogClient(dependencies: dependencies)
    let gatekeeper = Gatekeeper(gates: try EntitlementGates(reader: reader), now: now)
    let games = Games(
        database: database, games: SQLGameStore(), roster: SQLRosterStore(now: now), catalog: catalog, auth: auth, gatekeeper: gatekeeper,
        filter: ContentFilter(reader: reader), now: now)
    let reminders = RsvpReminders(games: games, store: SQLRsvpReminderStore(), every: settings.remindEvery)
    let roundStore = SQLRoundStore(now: now)
    let live = LiveRounds(logger: dependencies.logger) { round, after in
        try await database.read { sql in try await roundStore.changes(of: round, after: after, on: sql) }
    }
    let rounds = Rounds(database: database, rounds: roundStore, catalog: catalog, auth: auth, now: now)
    let matchStore = SQLMatchStore()
    let liveMatches = LiveMatches(logger: dependencies.logger) { match, after in
        try await database.read { sql in try await matchStore.changes(of: match, after: after, on: sql) }
    }
    let matches = Matches(
        database: database, store: matchStore, maxAgeSeconds: max(1, Int(settings.livePoll.seconds.rounded(.up))))

    service.add(
        GamesController(
            games: games, reminders: reminders, notifyKey: dependencies.internalKeys.publicKeys[.notify], now: dependencies.effects.now),
        RoundsController(rounds: rounds),
        MatchesController(matches: matches, today: now),
        GamesInternalController(games: games), GamesModerationController(games: games))
    let otherModules = GamesEvents(games: games, erasure: SQLErasureStore())
    service.exportPersonalData(GamesPersonalData.export)
    service.consumeEvents(
        GamesEvents.handlers, with: EventConsumer(database: database) { event, sql in try await otherModules.apply(event, on: sql) })
    try service.publishEvents()
    // Versions of matches a phone catches up with: a month covers any phone; the match itself keeps its last.
    service.retain(RetentionRule("matchchanges", table: "match_changes", column: "changed_at", defaultDays: 30))
    // A finished round's changes but the last, which carries the final card: a device resuming from any
    // version is sent that. A round still being played keeps all of its own.
    service.retain(
        RetentionRule(
            "roundchanges", table: "round_changes", column: "changed_at", defaultDays: 30,
            condition: "kind <> 'finished' AND round_id IN (SELECT id FROM rounds WHERE status = 'completed')"))
    service.addServices(
        ChangeNotifications(channel: ChangeChannel.rounds, database: database, live: live, logger: dependencies.logger),
        ChangeNotifications(channel: ChangeChannel.matches, database: database, live: liveMatches, logger: dependencies.logger))
    if let provider = settings.provider {
        service.addServices(
            MatchPoller(
                settings: .init(
                    liveInterval: settings.livePoll, dayInterval: settings.dayPoll, leagues: settings.leagues,
                    silentAfter: settings.silentAfter),
                client: APIFootballClient(settings: provider, http: dependencies.providerClient), matches: matches,
                lease: FeedLease(database: database, name: "football", duration: FeedLease.takeover), now: now,
                logger: dependencies.logger))
    }
    service.add(LiveController(rounds: rounds, live: live), MatchLiveController(matches: matches, live: liveMatches))
    return try service.application(server: LiveSockets.server(router: service.router, maxFrameSize: LiveController.maxMessageSize))
}
