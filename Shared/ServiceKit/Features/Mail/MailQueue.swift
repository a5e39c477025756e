import Contracts
public import Foundation
public import SQLKit
public import ServiceStore

/// Mail waiting to leave, in the module's own store (`mail_queue`, `Migration.mailQueue`): queued in
/// the same transaction as the change it tells of (a reset token and its mail commit together or
/// not at all), and sent by `MailDelivery` until the relay takes it or it has been tried enough.
public struct MailQueue: Sendable {
    /// Who Huddle's mail comes from (`mail.from`).
    public let sender: MailAddress
    /// Rung with the commit, so the sender on any instance wakes at once.
    public let queued: Doorbell
    let now: @Sendable () -> Date

    public init(sender: MailAddress, queued: Doorbell, now: @escaping @Sendable () -> Date) {
        self.sender = sender
        self.queued = queued
        self.now = now
    }

    /// Queues a mail to `recipient` on `sql`, inside the caller's transaction.
    public func enqueue(_ content: MailContent, to recipient: MailAddress, on sql: any SQLDatabase) async throws {
        let now = self.now()
        let message = MailMessage(
            from: sender, to: recipient, subject: content.subject, text: content.text, html: content.html,
            messageID: MailMessage.newMessageID(from: sender), date: now)
        let body = String(decoding: try HuddleJSON.encoder.encode(message), as: UTF8.self)
        try await sql.insert(into: "mail_queue")
            .columns("id", "recipient", "message", "queued_at", "next_attempt_at", "attempts")
            .values(
                SQLBind(UUID().uuidString.lowercased()), SQLBind(recipient.email.lowercased()), SQLBind(body), SQLBind(now), SQLBind(now),
                SQLBind(0)
            )
            .run()
        try await queued.ring(on: sql)
    }

    /// Forgets every mail to `email`, sent or not, so a deleted account's address leaves the store.
    public static func erase(recipient email: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "mail_queue").where("recipient", .equal, SQLBind(email.lowercased())).run()
    }
}

/// What a mail says: a subject, a text part and an HTML part of the same content.
public struct MailContent: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String?

    public init(subject: String, text: String, html: String?) {
        self.subject = subject
        self.text = text
        self.html = html
    }
}

extension Migration {
    /// `mail_queue`: each mail with its attempts; `sent_at` once the relay took it, `failed_at` once
    /// it was refused for good or tried `MailDelivery.maxAttempts` times.
    public static func mailQueue(version: Int) -> Migration {
        Migration(version: version, name: "mail queue") { kind in
            [
                """
                CREATE TABLE mail_queue (
                    id TEXT PRIMARY KEY, recipient TEXT NOT NULL, message TEXT NOT NULL, queued_at \(kind.timestamp) NOT NULL,
                    next_attempt_at \(kind.timestamp) NOT NULL, attempts INTEGER NOT NULL, sent_at \(kind.timestamp),
                    failed_at \(kind.timestamp), last_error TEXT)
                """,
                "CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL",
                "CREATE INDEX mail_queue_by_recipient ON mail_queue (recipient)",
            ]
        }
    }
}
