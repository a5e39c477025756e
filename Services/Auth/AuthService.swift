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
    /// The module as `huddle` and its own executable (`auth`) run it.
    public static let auth = ModuleBuilder(.auth, migrate: { try await migrateStore(.auth, reader: $0, logger: $1, AuthMigrations.all) }) {
        try await buildAuthService(reader: $0, dependencies: $1)
    }
}

/// Builds the auth service: accounts, sessions, tokens, profiles and follows.
///
/// Configuration keys: the skeleton's (`auth.http.*`, `auth.db.url`, `auth.revocation.poll.ms`,
/// `auth.events.*`, `internal.keys`, `auth.internal.key`) and `AuthSettings`' (`auth.bcrypt.cost`, `auth.jwt.privatekey`,
/// `auth.admin.emails`, `auth.oauth.facebook.*`, `auth.oauth.apple.*`, `auth.exports.*`); it calls every
/// personal-data holder (`Wiring.personalDataHolders`, `<module>.url`) for exports and deletion progress.
public func buildAuthService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    let settings = try AuthSettings(reader: reader)
    let now = dependencies.effects.now
    let issuer = TokenIssuer(accessLifetime: settings.accessLifetime, now: now)
    let sessions = SQLSessionStore(now: now)
    var service = try await ServiceSkeleton(
        .auth, reader: reader, dependencies: dependencies, migrations: AuthMigrations.all,
        keys: { LocalKeySource(issuer: issuer, database: $0, sessions: sessions, now: now) })
    let keys = LocalKeySource(issuer: issuer, database: service.database, sessions: sessions, now: now)
    let users = SQLUserStore()
    var appleTokens: AppleTokenExchange?
    if let exchange = settings.appleTokens {
        appleTokens = try await AppleTokenExchange(
            settings: exchange, httpClient: dependencies.providerClient, logger: dependencies.logger, now: now)
    }
    let filter = ContentFilter(reader: reader)
    let suspensions = Suspensions(store: SQLSuspensionStore(), sessions: sessions, logger: dependencies.logger, now: now)
    // Mail is queued in the transactions of the changes it tells of, and sent by `MailWorker`.
    let mailQueued = Doorbell(channel: "mail_queue", database: service.database, logger: dependencies.logger)
    let mailQueue = MailQueue(sender: settings.mail.sender, queued: mailQueued, now: now)
    let mails = try AccountMails(), tokens = SQLAccountTokenStore(), hasher = try await PasswordHasher(cost: settings.bcryptCost)
    let mailRequests = AccountMailRequests(
        database: service.database, users: users, tokens: tokens, mails: mails, queue: mailQueue, resetLifetime: settings.resetLifetime,
        resetPage: settings.mail.linkBase + "/reset", verifyPage: settings.mail.linkBase + "/verify-email", logger: dependencies.logger,
        now: now)
    let addresses = EmailAddresses(
        database: service.database, users: users, tokens: tokens, hasher: hasher, mails: mails, queue: mailQueue,
        requests: mailRequests, verifyPage: settings.mail.linkBase + "/verify-email", now: now)
    let secondFactors = SecondFactors(
        database: service.database, users: users, store: SQLSecondFactorStore(),
        sealer: settings.secondFactorKey
            ?? TokenSealer(derivedFrom: dependencies.internalKeys.privateKeyText(of: .auth) ?? "", purpose: "second factor secrets"),
        now: now)
    let accounts = Accounts(
        database: service.database, users: users, sessions: sessions, attempts: SQLLoginAttemptStore(), lifetime: settings.sessionLifetime,
        addresses: addresses, secondFactors: secondFactors, staffNeedSecondFactor: settings.staffNeedSecondFactor, hasher: hasher,
        issuer: issuer, verifier: service.verifier,
        facebook: FacebookVerifier(
            settings: settings.facebook, httpClient: dependencies.providerClient, logger: dependencies.logger, now: now),
        apple: AppleIdentityVerifier(
            settings: settings.apple, httpClient: dependencies.providerClient, logger: dependencies.logger, now: now),
        google: GoogleIdentityVerifier(
            settings: settings.google, httpClient: dependencies.providerClient, logger: dependencies.logger, now: now),
        appleTokens: appleTokens, sealer: settings.appleRefreshKey, throttle: LoginThrottle(), suspensions: suspensions, filter: filter,
        administratorEmails: settings.administratorEmails, now: now)
    let passwords = Passwords(
        database: service.database, users: users, sessions: sessions, tokens: tokens, attempts: SQLLoginAttemptStore(),
        accounts: accounts, mails: mails, queue: mailQueue, requests: mailRequests, now: now)
    let mail = MailDelivery(database: service.database, settings: settings.mail, logger: dependencies.logger, now: now)
    let profiles = Profiles(
        database: service.database, users: users, follows: SQLFollowStore(now: now), filter: filter,
        media: MediaClient(dependencies: dependencies), logger: dependencies.logger)
    let deletions = SQLDeletionStore()
    let exportStore = SQLExportStore()
    let appleRevocations = AppleRevocations(
        database: service.database, store: deletions, exchange: appleTokens, sealer: settings.appleRefreshKey, logger: dependencies.logger)
    let journal: ErasureJournal.Place? =
        if let bucket = settings.erasureJournalBucket {
            .objects(try await bucket.store(httpClient: dependencies.providerClient, now: now))
        } else {
            settings.erasureJournal.map(ErasureJournal.Place.file)
        }
    let deletion = AccountDeletion(
        database: service.database, users: users, store: deletions, exports: exportStore, hasher: accounts.hasher,
        verifier: service.verifier,
        facebook: accounts.facebook, apple: accounts.apple, google: accounts.google, appleRevocations: appleRevocations,
        outboxErasure: service.outboxErasure, journal: ErasureJournal(journal), logger: dependencies.logger,
        now: now)

    let appleNotifications = AppleNotifications(
        database: service.database, users: users, sessions: sessions, verifier: service.verifier, apple: accounts.apple,
        deletion: deletion, logger: dependencies.logger, now: now)

    let exportRequested = Doorbell(channel: "data_exports", database: service.database, logger: dependencies.logger)
    let exports = DataExports(
        database: service.database, store: exportStore, dependencies: dependencies, kept: settings.exportsKept, requested: exportRequested,
        logger: dependencies.logger, now: now)

    service.add(
        KeysController(keys: keys),
        SessionsController(
            accounts: accounts, passwords: passwords, addresses: addresses, profiles: profiles, appleNotifications: appleNotifications),
        UsersController(
            profiles: profiles, accounts: accounts, passwords: passwords, addresses: addresses, secondFactors: secondFactors,
            deletion: deletion, exports: exports),
        AdminController(deletions: DeletionTracking(database: service.database, store: deletions, dependencies: dependencies)),
        AuthInternalController(profiles: profiles, keys: keys))
    try service.publishEvents()
    service.consumeEvents(
        AuthEvents.handlers,
        with: EventConsumer(database: service.database) { event, sql in try await AuthEvents.handlers.step(for: event)?(suspensions, sql) }
    )
    service.addServices(
        AppleRevocationWorker(revocations: appleRevocations, interval: settings.appleRevokeRetry), exportRequested,
        ExportWorker(exports: exports, interval: settings.exportsPoll), mailQueued,
        MailWorker(requests: mailRequests, delivery: mail, queued: mailQueued),
        QueueAgeWatch("huddle_mail_queue_age_seconds", database: service.database, now: now, logger: dependencies.logger) { sql, _ in
            try await MailDelivery.oldestWaiting(on: sql)
        })
    let database = service.database
    service.beforeServerStarts {
        try await issuer.prepare(configuredKey: settings.signingKey, database: database)
        // After a restore, the accounts deleted since its point are erased again before anyone is answered.
        _ = try await deletion.replay(deletion.journal)
    }
    return try service.application()
}
