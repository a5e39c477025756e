import AsyncHTTPClient
public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import Logging
import NIOCore
import NIOSSL
import ServerContracts
import ServiceClients
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`notify`) run it.
    public static let notify = ModuleBuilder(
        .notify, migrate: { try await migrateStore(.notify, reader: $0, logger: $1, NotifyMigrations.all) }
    ) {
        try await buildNotifyService(reader: $0, dependencies: $1)
    }
}

/// Builds the notify service: devices for push, an inbox per user, preferences per category, and
/// notifications made from auth's, catalog's and games' events, each with a push job per device
/// written in the same transaction.
///
/// Configuration keys: the skeleton's (`notify.http.*`, `notify.db.url`, `notify.revocation.poll.ms`,
/// `internal.keys`, `notify.internal.key`) and `NotifySettings`' (`notify.apns.topic`, `notify.push.lifetime.ms`,
/// `notify.chat.quiet.s`). Notify consumes auth's, catalog's, games', chat's and others' events (`Wiring.eventConsumers`), and
/// asks chat whom each message is pushed to.
public func buildNotifyService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.notify, reader: reader, dependencies: dependencies, migrations: NotifyMigrations.all)
    let database = service.database
    let settings = NotifySettings(reader: reader)
    let now = dependencies.effects.now
    let deviceStore = SQLDeviceStore(), preferenceStore = SQLPreferenceStore(), pushes = SQLPushJobStore(kind: database.kind)
    let pushesQueued = Doorbell(channel: PushWorker.queuedChannel, database: database, logger: dependencies.logger)
    service.addServices(pushesQueued)
    guard !TextCatalogue.notifications.isEmpty else {
        throw MissingConfiguration(
            key: "notify texts", hint: "Notifications.xcstrings, in the NotifyService resources beside the executable, could not be read")
    }
    let directory = SQLDirectoryStore()
    let notifications = Notifications(
        database: database, store: SQLNotificationStore(), devices: deviceStore, preferences: preferenceStore, directory: directory,
        pushes: pushes,
        pushLifetime: settings.pushLifetime, pushesQueued: pushesQueued,
        answerToken: { [credential = dependencies.credential] player, answers in
            guard let credential else { return nil }
            return try await RSVPGrant.issue(to: player, for: answers.game, until: answers.kickoff, by: credential)
        }, now: now)
    let devices = Devices(database: database, store: deviceStore, pushes: pushes, defaultTopic: settings.apnsTopic, now: now)
    let auth = AuthClient(dependencies: dependencies, timeout: .seconds(2))
    let reminderStore = SQLReminderStore(kind: database.kind)
    let chat = ChatClient(dependencies: dependencies, timeout: .seconds(2))
    let chatPushes = ChatPushes(
        message: { try await chat.messagePush($0) }, messages: { try await chat.messagePushes($0) },
        windows: SQLChatPushWindowStore(kind: database.kind), notifications: notifications,
        pacing: ChatPushPacing(quiet: settings.chatQuiet), now: now)
    let events = NotifyEvents(
        directory: directory, erasure: SQLErasureStore(pushes: pushes), notifications: notifications,
        reminders: Reminders(store: reminderStore, directory: directory, schedule: settings.reminders, now: now),
        chatPushes: chatPushes,
        nameFromAuth: { try await auth.profiles([$0])[$0]?.name })

    service.add(
        DevicesController(devices: devices), InboxController(notifications: notifications),
        PreferencesController(preferences: Preferences(database: database, store: preferenceStore)))
    service.exportPersonalData(NotifyPersonalData.export)
    service.consumeEvents(
        NotifyEvents.handlers, with: EventConsumer(database: database) { event, sql in try await events.apply(event, on: sql) })
    // Pushes given up or expired, kept a week to look into (a sent one is deleted); one still pending is never pruned.
    service.retain(RetentionRule("pushjobs", table: "push_jobs", column: "run_at", defaultDays: 7, condition: "state <> 'pending'"))
    // A room's chat push pace goes after a day, its batches sent a day after they were due.
    service.retain(RetentionRule("chatpace", table: "chat_push_rooms", column: "next_at", defaultDays: 1))
    service.retain(RetentionRule("chatbatches", table: "chat_push_batches", column: "due_at", defaultDays: 1, condition: "state = 'sent'"))

    var senders: [PushPlatform: any PushSender] = [:]
    let apns = try APNsSettings(reader: reader)
    if let pem = apns.privateKeyPEM {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustFile = apns.trustFile { tls.additionalTrustRoots = [.file(trustFile)] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        service.addServices(HTTPClientService(client: client))
        senders[.apns] = APNsSender(
            client: client, token: try await APNsToken(privateKeyPEM: pem, keyID: apns.keyID, teamID: apns.teamID, now: now),
            productionURL: apns.productionURL, sandboxURL: apns.sandboxURL, timeout: .milliseconds(Int64(apns.timeout.seconds * 1000)),
            logger: dependencies.logger)
    } else {
        dependencies.logger.notice("notify: no APNs key (notify.apns.key); pushes to iPhones wait in the queue")
    }
    let fcm = try FCMSettings(reader: reader)
    if let account = fcm.account {
        let client = dependencies.providerClient
        let timeout = TimeAmount.milliseconds(Int64(fcm.timeout.seconds * 1000))
        senders[.fcm] = FCMSender(
            client: client, token: try await FCMAccessToken(client: client, account: account, timeout: timeout, now: now), url: fcm.url,
            project: account.projectId, timeout: timeout, now: now)
    } else {
        dependencies.logger.notice("notify: no FCM service account (notify.fcm.credentials); pushes to Android phones wait in the queue")
    }
    service.addServices(
        ReminderWorker(
            database: database, store: reminderStore, directory: directory, notifications: notifications, batch: settings.reminderBatch,
            poll: settings.reminderPoll, logger: dependencies.logger, now: now))
    service.addServices(
        // A batch's due rooms are asked about in one call to chat, which takes at most so many.
        ChatPushWorker(
            database: database, pushes: chatPushes, batch: min(settings.reminderBatch, MessagePushesRequest.maxIDs),
            poll: settings.reminderPoll, logger: dependencies.logger, now: now))
    service.addServices(
        QueueAgeWatch("notify_push_queue_age_seconds", database: database, now: now, logger: dependencies.logger) { sql, _ in
            try await pushes.nextDue(on: sql)
        })
    for _ in 0..<settings.push.workers {
        service.addServices(
            PushWorker(
                database: database, jobs: pushes, notifications: SQLNotificationStore(), devices: deviceStore, senders: senders,
                settings: settings.push, queued: pushesQueued, logger: dependencies.logger, now: now))
    }
    return try service.application()
}
