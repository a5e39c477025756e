import Configuration
import Foundation
import ServiceHTTP

/// Notify's rules that are configuration, read once at start.
struct NotifySettings: Sendable {
    /// The app's bundle id: the APNs topic of a device registered without one.
    var apnsTopic: String
    /// How long a push is worth delivering (`apns-expiration`); a job still unsent then is dropped.
    var pushLifetime: TimeInterval

    var push: PushSettings
    var reminders: ReminderSchedule
    /// How often the reminder worker looks for due reminders, and how many it fires at a time.
    var reminderPoll: Duration
    var reminderBatch: Int
    /// At most one chat push per room and player in this long (`ChatPushPacing`).
    var chatQuiet: TimeInterval

    /// Keys: `notify.apns.topic` (default `app.huddle.ios`), `notify.push.lifetime.ms` (86400000: a day),
    /// `PushSettings`' `notify.push.*`, `notify.reminders.morning.hour` (8, in the game's time zone),
    /// `notify.reminders.before.ms` (3600000: an hour before kickoff), `notify.rsvp.remind.before.ms` (172800000: players
    /// invited who have not answered are asked two days before kickoff), `notify.reminders.poll.ms`
    /// (500), `notify.reminders.batch` (500), `notify.chat.quiet.s` (10).
    init(reader: ConfigReader) {
        apnsTopic = reader.string(forKey: "notify.apns.topic", default: "app.huddle.ios")
        pushLifetime = max(1, reader.milliseconds("notify.push.lifetime.ms", default: 86_400_000).seconds)
        push = PushSettings(reader: reader)
        reminders = ReminderSchedule(
            morningHour: min(23, max(0, reader.integer("notify.reminders.morning.hour", default: 8))),
            before: max(0, reader.milliseconds("notify.reminders.before.ms", default: 3_600_000).seconds),
            answerBefore: max(0, reader.milliseconds("notify.rsvp.remind.before.ms", default: 172_800_000).seconds))
        reminderPoll = .milliseconds(max(1, reader.integer("notify.reminders.poll.ms", default: 500)))
        reminderBatch = max(1, reader.integer("notify.reminders.batch", default: 500))
        chatQuiet = TimeInterval(max(0, reader.integer("notify.chat.quiet.s", default: 10)))
    }
}

/// How the push queue is drained.
struct PushSettings: Sendable {
    /// Workers draining the queue in this process: while one sends a batch, another records its
    /// answers or claims the next.
    var workers: Int
    /// Jobs claimed at a time, and sent at once.
    var batch: Int
    var concurrency: Int
    /// How long an idle worker waits before looking again.
    var pollMilliseconds: Int
    /// How long a claimed job is held by its worker before another may claim it.
    var lease: TimeInterval
    /// Retries wait `backoffBase × 2^attempts`, at most `backoffMax`, for at most `maxAttempts` attempts.
    var backoffBase: TimeInterval
    var backoffMax: TimeInterval
    var maxAttempts: Int

    /// Keys: `notify.push.workers` (2), `notify.push.batch` (100), `notify.push.concurrency` (32), `notify.push.poll.ms` (200),
    /// `notify.push.lease.ms` (30000), `notify.push.backoff.ms` (1000), `notify.push.backoff.max.ms`
    /// (300000), `notify.push.attempts` (10).
    init(reader: ConfigReader) {
        workers = max(1, reader.integer("notify.push.workers", default: 2))
        batch = max(1, reader.integer("notify.push.batch", default: 100))
        concurrency = max(1, reader.integer("notify.push.concurrency", default: 32))
        pollMilliseconds = max(1, reader.integer("notify.push.poll.ms", default: 200))
        lease = max(0.001, reader.milliseconds("notify.push.lease.ms", default: 30_000).seconds)
        backoffBase = max(0.001, reader.milliseconds("notify.push.backoff.ms", default: 1000).seconds)
        backoffMax = max(backoffBase, reader.milliseconds("notify.push.backoff.max.ms", default: 300_000).seconds)
        maxAttempts = max(1, reader.integer("notify.push.attempts", default: 10))
    }
}
