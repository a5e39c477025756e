import Contracts
import Foundation
import Logging
import SQLKit
import ServiceKit
import ServiceLifecycle

/// Drains the push queue: claims due jobs (each goes to one worker of one replica), sends them
/// through the platform's sender a few at a time, and records what happened — sent, due again
/// with backoff, dropped, or the token forgotten. A worker killed mid-send leaves its claimed jobs
/// leased; they are claimed again when the lease runs out, and APNs collapses a repeat by the
/// notification's id.
struct PushWorker: Service {
    let database: Database
    let jobs: any PushJobStore
    let notifications: any NotificationStore
    let devices: any DeviceStore
    let senders: [PushPlatform: any PushSender]
    let settings: PushSettings
    let logger: Logger
    let now: @Sendable () -> Date

    func run() async throws {
        await database.repeatUntilShutdown {
            do {
                // A full batch means more may be due: go again at once.
                return try await drainOnce() == settings.batch ? .zero : .milliseconds(settings.pollMilliseconds)
            } catch {
                logger.warning("push queue: \(error)")
                return .milliseconds(settings.pollMilliseconds)
            }
        }
    }

    /// Claims one batch, sends it, and records every answer in one transaction; answers how many
    /// jobs it claimed. (A transaction per job held the queue to about 320 pushes a second on SQLite.)
    func drainOnce() async throws -> Int {
        let at = now()
        let claimed = try await database.transaction { sql in
            try await jobs.claim(settings.batch, dueBy: at, leaseUntil: at.addingTimeInterval(settings.lease), on: sql)
        }
        guard !claimed.isEmpty else { return 0 }
        let contents = try await database.read { sql in try await notifications.notifications(claimed.map(\.notification), on: sql) }
        let decided = await withTaskGroup(of: (PushJob, PushOutcome, PushDecision).self) { group in
            var running = 0, decided: [(PushJob, PushOutcome, PushDecision)] = []
            for job in claimed {
                if running == settings.concurrency, let done = await group.next() {
                    decided.append(done)
                    running -= 1
                }
                running += 1
                group.addTask { await attempt(job, contents[job.notification]?.0) }
            }
            for await done in group { decided.append(done) }
            return decided
        }
        do {
            try await database.transaction { sql in
                for (job, outcome, decision) in decided { try await record(job, outcome, decision, on: sql) }
            }
        } catch {
            // The lease brings the jobs back; a repeat collapses on the phone.
            logger.warning("push queue: could not record \(decided.count) answers: \(error)")
        }
        return claimed.count
    }

    private func attempt(_ job: PushJob, _ notification: InboxNotification?) async -> (PushJob, PushOutcome, PushDecision) {
        let outcome: PushOutcome
        if let notification, let sender = senders[job.device.platform] {
            outcome =
                job.expiresAt <= now()
                ? .rejected(reason: "expired") : await sender.send(OutgoingPush(job: job, notification: notification, badge: nil))
        } else if notification == nil {
            outcome = .rejected(reason: "the notification is gone")
        } else {
            outcome = .retry(reason: "no \(job.device.platform.rawValue) credentials configured", after: nil)
        }
        let decision = PushDecision.after(
            outcome, attempts: job.attempts, expiresAt: job.expiresAt, now: now(), base: settings.backoffBase,
            maxDelay: settings.backoffMax, maxAttempts: settings.maxAttempts)
        return (job, outcome, decision)
    }

    private func record(_ job: PushJob, _ outcome: PushOutcome, _ decision: PushDecision, on sql: any SQLDatabase) async throws {
        switch decision {
        case .sent:
            try await jobs.finish(job.id, state: .sent, error: nil, at: now(), on: sql)
        case .retry(let at):
            try await jobs.retry(job.id, at: at, error: Self.reason(of: outcome), on: sql)
        case .drop(let reason):
            try await jobs.finish(job.id, state: .dropped, error: reason, at: now(), on: sql)
        case .forgetToken(let reason):
            try await jobs.finish(job.id, state: .dropped, error: reason, at: now(), on: sql)
            try await devices.forget(job.device.token, on: sql)
            try await jobs.dropPending(token: job.device.token, reason: reason, at: now(), on: sql)
        }
    }

    private static func reason(of outcome: PushOutcome) -> String {
        switch outcome {
        case .delivered: "delivered"
        case .retry(let reason, _), .tokenInvalid(let reason), .rejected(let reason): reason
        }
    }
}
