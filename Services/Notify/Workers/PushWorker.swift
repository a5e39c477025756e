import Contracts
import Foundation
import Logging
import Metrics
import SQLKit
import ServiceHTTP
import ServiceLifecycle
import ServiceStore
import Tracing

/// Drains the push queue: claims due jobs (each goes to one worker of one replica), sends them
/// through the platform's sender a few at a time, and records what happened — sent, due again
/// with backoff, dropped, or the token forgotten. A worker killed mid-send leaves its claimed jobs
/// leased; they are claimed again when the lease runs out, and APNs collapses a repeat by the
/// notification's id.
struct PushWorker: Service {
    /// The channel their doorbell is rung on when jobs commit.
    static let queuedChannel = "huddle_notify_pushes"

    let database: Database
    let jobs: any PushJobStore
    let notifications: any NotificationStore
    let devices: any DeviceStore
    let senders: [PushPlatform: any PushSender]
    let settings: PushSettings
    /// Rung when jobs are queued: an idle worker then claims them at once rather than at its next poll.
    let queued: Doorbell?
    let logger: Logger
    let now: @Sendable () -> Date

    func run() async throws {
        await database.repeatUntilShutdown(wakingOn: queued?.bell) {
            do {
                // A full batch means more may be due: go again at once.
                return try await drainOnce() == settings.batch ? .zero : .milliseconds(settings.pollMilliseconds)
            } catch {
                // Stopping cancels the work under way; that is not worth a warning.
                if !Task.isCancelled { logger.warning("push queue: \(error)") }
                return .milliseconds(settings.pollMilliseconds)
            }
        }
    }

    /// Claims one batch, sends it, and records the answers as they come, a group per transaction;
    /// answers how many jobs it claimed. A push answered but not yet recorded when the process is
    /// killed goes again once its lease runs out, so the answers are written in groups of half the
    /// sends under way rather than once for the batch: a kill repeats at most those in flight and
    /// one group. (A transaction per answer held the queue to about 320 pushes a second on SQLite.)
    func drainOnce() async throws -> Int {
        let at = now()
        // One statement, but a write: it goes where writes go.
        let claimed = try await database.transaction { sql in
            try await jobs.claim(settings.batch, dueBy: at, leaseUntil: at.addingTimeInterval(settings.lease), on: sql)
        }
        guard !claimed.isEmpty else { return 0 }
        // Each push's badge is its player's unread inbox, counted as the batch is sent.
        let unread = try await database.read { sql in try await notifications.unreadCounts(of: Set(claimed.map(\.recipient)), on: sql) }
        var progress = SharedProgress(claimed)
        let group = max(1, settings.concurrency / 2)
        await withTaskGroup(of: Answer.self) { sends in
            var running = 0, answered: [Answer] = []
            for job in claimed {
                if running == settings.concurrency, let answer = await sends.next() {
                    answered.append(answer)
                    running -= 1
                    if answered.count >= group { await record(&answered, &progress) }
                }
                running += 1
                sends.addTask { await attempt(job, badge: unread[job.recipient] ?? 0) }
            }
            for await answer in sends {
                answered.append(answer)
                if answered.count >= group { await record(&answered, &progress) }
            }
            await record(&answered, &progress)
        }
        return claimed.count
    }

    typealias Answer = (job: PushJob, outcome: PushOutcome, decision: PushDecision)

    /// Writes the answers in one transaction, with how far each shared row the worker holds is now
    /// answered (its lease held on), and empties them.
    private func record(_ answers: inout [Answer], _ progress: inout SharedProgress) async {
        guard !answers.isEmpty else { return }
        let written = answers
        answers = []
        var after = progress
        let held = after.answer(written.compactMap { answer in answer.job.shared.map { (row: answer.job.id, index: $0.index) } })
        do {
            try await database.transaction { sql in
                try await record(written, on: sql)
                let leaseUntil = now().addingTimeInterval(settings.lease)
                for (row, answered, devices) in held {
                    try await jobs.advance(row, answered: answered, of: devices, leaseUntil: leaseUntil, on: sql)
                }
            }
            progress = after
            Self.count(written)
        } catch {
            // The lease brings the jobs back; a repeat collapses on the phone.
            logger.warning("push queue: could not record \(written.count) answers: \(error)")
        }
    }

    private func attempt(_ job: PushJob, badge: Int) async -> Answer {
        let outcome: PushOutcome
        if let sender = senders[job.device.platform] {
            outcome =
                job.expiresAt <= now()
                ? .rejected(reason: "expired") : await sending(job) { await sender.send(OutgoingPush(job: job, badge: badge)) }
        } else {
            outcome = .retry(reason: "no \(job.device.platform.rawValue) credentials configured", after: nil)
        }
        let decision = PushDecision.after(
            outcome, attempts: job.attempts, expiresAt: job.expiresAt, now: now(), base: settings.backoffBase,
            maxDelay: settings.backoffMax, maxAttempts: settings.maxAttempts)
        return (job, outcome, decision)
    }

    /// A push whose cause was traced is sent in a span of that trace (`push <platform>`), so the trace
    /// of a request or event ends at APNs or FCM, however long the push waited in the queue.
    private func sending(_ job: PushJob, _ send: () async -> PushOutcome) async -> PushOutcome {
        guard let trace = job.trace else { return await send() }
        return await withSpan("push \(job.device.platform.rawValue)", context: trace.context, ofKind: .producer) { span in
            span.attributes["huddle.module"] = ServiceModule.notify.rawValue
            span.attributes["huddle.push.attempt"] = job.attempts + 1
            let outcome = await TraceContext.$recording.withValue(span.isRecording) { await send() }
            if case .delivered = outcome {} else { span.setStatus(SpanStatus(code: .error, message: "\(outcome)")) }
            return outcome
        }
    }

    /// The sent in one statement and the dropped in one per reason; retries and forgotten tokens,
    /// which are rare, one at a time. A device of a shared row that is not sent leaves the row as a
    /// job of its own, due again or dropped; one sent is done with the row (`SharedProgress`).
    private func record(_ decided: [Answer], on sql: any SQLDatabase) async throws {
        var sent: [PushJobID] = [], dropped: [String: [PushJobID]] = [:]
        for (job, outcome, decision) in decided {
            if case .forgetToken(let reason) = decision {
                try await devices.forget(job.device.token, on: sql)
                try await jobs.dropPending(token: job.device.token, reason: reason, at: now(), on: sql)
            }
            guard job.shared == nil else {
                switch decision {
                case .sent: break
                case .retry(let at):
                    try await jobs.setApart(job, state: .pending, runAt: at, error: Self.reason(of: outcome), at: now(), on: sql)
                case .drop(let reason), .forgetToken(let reason):
                    try await jobs.setApart(job, state: .dropped, runAt: job.runAt, error: reason, at: now(), on: sql)
                }
                continue
            }
            switch decision {
            case .sent: sent.append(job.id)
            case .retry(let at): try await jobs.retry(job.id, at: at, error: Self.reason(of: outcome), on: sql)
            case .drop(let reason), .forgetToken(let reason): dropped[reason, default: []].append(job.id)
            }
        }
        try await jobs.finish(sent, state: .sent, error: nil, at: now(), on: sql)
        for (reason, ids) in dropped.sorted(by: { $0.key < $1.key }) {
            try await jobs.finish(ids, state: .dropped, error: reason, at: now(), on: sql)
        }
    }

    /// `notify_pushes_total` by platform and what became of the push: sent, retry, dropped, or
    /// token_forgotten (the platform said the device is gone).
    private static func count(_ answers: [Answer]) {
        var counts: [[String]: Int] = [:]
        for (job, _, decision) in answers {
            let result =
                switch decision {
                case .sent: "sent"
                case .retry: "retry"
                case .drop: "dropped"
                case .forgetToken: "token_forgotten"
                }
            counts[[job.device.platform.rawValue, result], default: 0] += 1
        }
        for (key, count) in counts {
            Counter(label: "notify_pushes_total", dimensions: [("platform", key[0]), ("result", key[1])]).increment(by: count)
        }
    }

    private static func reason(of outcome: PushOutcome) -> String {
        switch outcome {
        case .delivered: "delivered"
        case .retry(let reason, _), .tokenInvalid(let reason), .rejected(let reason): reason
        }
    }
}
