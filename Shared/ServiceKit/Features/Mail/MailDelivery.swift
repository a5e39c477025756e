import Contracts
public import Foundation
public import Logging
import Metrics
import NIOConcurrencyHelpers
public import SQLKit
import ServiceHTTP
public import ServiceStore

/// Sends what `MailQueue` holds, oldest first, from whichever instance holds the `mail` lease (so
/// two replicas never send the same mail at once). A mail is marked sent as soon as the relay has
/// taken it; a relay that is down or answers 4xx is tried again after `retry`, doubling up to an
/// hour, until `maxAttempts`; a 5xx refusal or the last attempt marks it failed, logged as an error
/// and counted (`huddle_mail_failed_total`) so an operator sees it.
///
/// Once the relay has answered 250 to the data the mail is the relay's; only an instance killed in
/// the moment between that answer and its own commit sends it again (one mail per session it had
/// open). A relay drops a message whose data did not end, so a kill mid-send never leaves half a mail.
public struct MailDelivery: Sendable {
    public let database: Database
    /// nil: no relay configured (`mail.smtp.url`); mail waits in the queue.
    let client: SMTPClient?
    let lease: FeedLease
    let retry: Duration
    let logger: Logger
    let now: @Sendable () -> Date
    let sent = Counter(label: "huddle_mail_sent_total")
    let failed = Counter(label: "huddle_mail_failed_total")
    public static let maxAttempts = 8
    static let batch = 40

    public init(database: Database, settings: MailSettings, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.client = settings.client
        self.lease = FeedLease(database: database, name: "mail", duration: settings.lease.seconds)
        self.retry = settings.retry
        self.pause = min(FeedLease.heartbeat, settings.lease / 3)
        self.logger = logger
        self.now = now
    }

    /// Sends every due mail this instance may send now; a session stops at the first mail the relay
    /// refuses for now or cannot take.
    public func sendDue() async {
        guard let client else { return }
        do {
            guard try await lease.acquire(at: now()) else { return }
            let due = try await due()
            // The batch in a few sessions at once, each mail's answer recorded as it comes: under load a
            // mail took about 110 ms in one session (its answer a transaction), so 130 registrations'
            // mails held a password reset behind them for 16–22 s.
            let renewedAt = NIOLockedValueBox(now())
            let size = max(1, (due.count + Self.sessions - 1) / Self.sessions)
            await withTaskGroup(of: Void.self) { group in
                for start in stride(from: 0, to: due.count, by: size) {
                    let part = Array(due[start..<min(start + size, due.count)])
                    group.addTask { await send(part, through: client, renewedAt: renewedAt) }
                }
            }
        } catch {
            logger.warning("mail queue unavailable: \(error)")
        }
    }

    /// How many sessions a batch is sent in at once.
    public static let sessions = 4

    /// `mails` in one session, each answer recorded as it comes. The lease renewed before the next mail
    /// once a heartbeat has passed (`pause`, a third of a short lease): a relay slow enough for it to
    /// lapse mid-batch lets another instance take the queue, and both would send what is left of the
    /// batch. (Renewed before every mail, it was one transaction more a mail.)
    private func send(_ mails: [Queued], through client: SMTPClient, renewedAt: NIOLockedValueBox<Date>) async {
        let answered = NIOLockedValueBox(0)
        do {
            try await client.send(mails.map(\.message)) { index, outcome in
                answered.withLockedValue { $0 = index + 1 }
                guard await record(mails[index], outcome), index + 1 < mails.count else { return false }
                let at = now()
                let renew = renewedAt.withLockedValue { last in
                    guard at.timeIntervalSince(last) >= pause.seconds else { return false }
                    last = at
                    return true
                }
                return renew ? ((try? await lease.acquire(at: at)) ?? false) : true
            }
        } catch {
            // The relay could not be reached, or dropped the session: the mail it was on tried again later.
            if let unanswered = mails.dropFirst(answered.withLockedValue { $0 }).first {
                _ = await record(unanswered, .failure(SMTPFailure(reply: "\(error)", permanent: false)))
            }
        }
    }

    /// How soon to look again: the lease's heartbeat (a third of a short lease), so another
    /// instance takes over in time.
    public let pause: Duration

    /// When the oldest mail not yet sent nor given up was queued (`huddle_mail_queue_age_seconds`):
    /// mail waiting for a retry waits too.
    public static func oldestWaiting(on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column("queued_at").from("mail_queue")
            .where("sent_at", .is, SQLLiteral.null).where("failed_at", .is, SQLLiteral.null)
            .orderBy("queued_at").limit(1).first()?.decode(column: "queued_at", as: Date.self)
    }

    private struct Queued {
        let id: String
        let message: MailMessage
        let attempts: Int
    }

    private func due() async throws -> [Queued] {
        let now = self.now()
        return try await database.read { sql in
            try await sql.select().columns("id", "message", "attempts").from("mail_queue")
                .where("sent_at", .is, SQLLiteral.null).where("failed_at", .is, SQLLiteral.null)
                .where("next_attempt_at", .lessThanOrEqual, SQLBind(now)).orderBy("queued_at").limit(Self.batch).all()
                .map { row in
                    Queued(
                        id: try row.decode(column: "id", as: String.self),
                        message: try HuddleJSON.decoder.decode(
                            MailMessage.self, from: Data(try row.decode(column: "message", as: String.self).utf8)),
                        attempts: try row.decode(column: "attempts", as: Int.self))
                }
        }
    }

    /// Records what the relay answered for `mail`; answers whether to go on with the next: false when
    /// the relay refused it for now (a 4xx: the next would be refused too).
    private func record(_ mail: Queued, _ outcome: Result<Void, SMTPFailure>) async -> Bool {
        let attempts = mail.attempts + 1
        do {
            try outcome.get()
            try await record(mail.id, attempts: attempts) { $0.set("sent_at", to: SQLBind(now())) }
            sent.increment()
            return true
        } catch {
            let permanent = (error as? SMTPFailure)?.permanent ?? false
            if permanent || attempts >= Self.maxAttempts {
                logger.error(
                    "mail not sent, given up",
                    metadata: ["mail.id": "\(mail.id)", "mail.attempts": "\(attempts)", "error": "\(error)"])
                failed.increment()
                try? await record(mail.id, attempts: attempts, error: "\(error)") { $0.set("failed_at", to: SQLBind(now())) }
                return true
            }
            let wait = min(3600, retry.seconds * pow(2, Double(attempts - 1)))
            logger.warning("mail not sent, tried again in \(Int(wait)) s", metadata: ["mail.id": "\(mail.id)", "error": "\(error)"])
            try? await record(mail.id, attempts: attempts, error: "\(error)") {
                $0.set("next_attempt_at", to: SQLBind(now().addingTimeInterval(wait)))
            }
            return permanent
        }
    }

    private func record(
        _ id: String, attempts: Int, error: String? = nil, _ change: @escaping @Sendable (SQLUpdateBuilder) -> SQLUpdateBuilder
    ) async throws {
        try await database.transaction { sql in
            try await change(sql.update("mail_queue")).set("attempts", to: SQLBind(attempts)).set("last_error", to: SQLBind(error))
                .where("id", .equal, SQLBind(id)).run()
        }
    }
}
