public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import ServerContracts
import ServiceClients
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`moderation`) run it.
    public static let moderation = ModuleBuilder(
        .moderation, migrate: { try await migrateStore(.moderation, reader: $0, logger: $1, ModerationMigrations.all) }
    ) {
        try await buildModerationService(reader: $0, dependencies: $1)
    }
}

/// Builds the moderation service: players' reports, gathered into cases moderators decide, with an
/// audit trail; the moderator role administrators grant. It asks the module that holds a subject
/// how the reporter sees it (auth, catalog, games, chat), publishes each decision for notify (and
/// the subject's module) to carry out, and takes auth's account deletions (list `moderation` in
/// `auth.events.subscribers`).
///
/// Configuration keys: the skeleton's (`moderation.http.*`, `moderation.db.url`, `moderation.revocation.poll.ms`,
/// `moderation.events.*`, `internal.keys`, `moderation.internal.key`) and `ModerationSettings`' (`moderation.reports.per.hour`,
/// `moderation.hide.after`, `moderation.console.session.ms`, `moderation.console.cookie.secure`). The console
/// (`/admin`) seals the auth sessions it keeps with a key derived from its own `moderation.internal.key`.
public func buildModerationService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    let settings = ModerationSettings(reader: reader)
    var service = try await ServiceSkeleton(.moderation, reader: reader, dependencies: dependencies, migrations: ModerationMigrations.all)
    let now = dependencies.effects.now
    let store = SQLCaseStore()
    let moderatorStore = SQLModeratorStore()
    let moderators = Moderators(
        database: service.database, store: moderatorStore, auth: AuthClient(dependencies: dependencies), now: now)
    let reports = Reports(
        database: service.database, store: store, subjects: Subjects(dependencies: dependencies), dependencies: dependencies,
        settings: settings, moderators: moderatorStore, logger: dependencies.logger, now: now)
    let cases = Cases(
        database: service.database, store: store, moderators: moderators, responseTime: settings.responseTime, logger: dependencies.logger,
        now: now)
    let sessionStore = SQLConsoleSessionStore()
    let events = ModerationEvents(store: store, moderators: moderatorStore, sessions: sessionStore, now: now)
    // Signing in hashes the password at auth: the console waits for it as long as the gateway waits for
    // an app's sign-in (`gateway.upstream.timeout.ms`, 10 s); at 5 s a busy machine's replicated
    // topology refused a moderator with 503 while auth was still hashing.
    let consoleSessions = ConsoleSessions(
        database: service.database, store: sessionStore, auth: InternalClient(.auth, dependencies: dependencies, timeout: .seconds(10)),
        verifier: service.verifier, moderators: moderators,
        sealer: TokenSealer(
            derivedFrom: dependencies.internalKeys.privateKeyText(of: .moderation) ?? "", purpose: "moderation console sessions"),
        lifetime: settings.consoleSessionLifetime, logger: dependencies.logger, now: now)
    service.add(
        ReportsController(reports: reports), ModerationController(cases: cases, moderators: moderators),
        ConsoleController(
            sessions: consoleSessions, cases: cases, people: PeopleNames(auth: AuthClient(dependencies: dependencies)),
            responseTime: settings.responseTime,
            secureCookies: settings.secureConsoleCookies, templates: try ConsoleTemplates.library(), now: now))
    try service.publishEvents()
    service.exportPersonalData(ModerationPersonalData.export)
    service.consumeEvents(
        ModerationEvents.handlers,
        with: EventConsumer(database: service.database) { event, sql in try await ModerationEvents.handlers.step(for: event)?(events, sql) }
    )
    service.addServices(QueueWatch(cases: cases, interval: settings.queueCheck))
    return try service.application()
}
