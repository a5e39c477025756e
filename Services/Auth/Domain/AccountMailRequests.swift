import Contracts
import Foundation
import Logging
import SQLKit
import ServiceFeatures
import ServiceStore

/// Requests that mail a player, limited per address and per client, and the ones whose mail depends
/// on other accounts — a reset for an address that may have none, a move to an address another may
/// hold — decided after the answer. The request only records itself (the same rows whoever asks, so
/// the answer takes the same time); `decidePending`, run by `MailWorker` as soon as the request
/// commits, looks the address up, makes the token and queues the mail, or does nothing.
struct AccountMailRequests: Sendable {
    /// How many requests an address, and a client, may make in `window`.
    static let perAddress = 5
    static let perClient = 20
    static let window: TimeInterval = 3600
    static let batch = 50

    let database: Database
    let users: any UserStore
    let tokens: any AccountTokenStore
    let mails: AccountMails
    let queue: MailQueue
    /// How long a reset token works (`auth.password.reset.ttl.ms`, 30 minutes).
    let resetLifetime: TimeInterval
    /// The pages mailed links open: `mail.links.url` + `/reset` and + `/verify-email`.
    let resetPage: String
    let verifyPage: String
    let logger: Logger
    let now: @Sendable () -> Date

    /// Counts a request for mail to `email` from `client`, in the caller's transaction; refused
    /// (429) past either limit.
    func admit(email: String, client: String, on sql: any SQLDatabase) async throws {
        let now = self.now()
        try await Database.lock("auth.mail-requests.\(email)", on: sql)
        let made = try await tokens.requests(email: email, client: client, since: now.addingTimeInterval(-Self.window), on: sql)
        guard made.email < Self.perAddress, made.client < Self.perClient else {
            throw AuthError.tooManyAttempts(retryAfterSeconds: Int(Self.window))
        }
        try await tokens.recordRequest(email: email, client: client, at: now, on: sql)
    }

    /// Leaves `request` to be decided once the caller's transaction commits.
    func decideLater(_ request: PendingAccountMail, on sql: any SQLDatabase) async throws {
        try await tokens.queue(request, on: sql)
        try await queue.queued.ring(on: sql)
    }

    /// Decides every pending request, oldest first, each in its own transaction.
    func decidePending() async {
        do {
            let waiting = try await database.read { sql in try await tokens.pending(limit: Self.batch, on: sql) }
            for seq in waiting {
                try await database.transaction { sql in
                    guard let request = try await tokens.take(seq, on: sql) else { return }
                    try await decide(request, on: sql)
                }
            }
        } catch {
            logger.warning("pending account mail not decided: \(error)")
        }
    }

    private func decide(_ request: PendingAccountMail, on sql: any SQLDatabase) async throws {
        let now = self.now(), token = RefreshToken.generate()
        switch request.purpose {
        case .passwordReset:
            guard let user = try await users.user(email: request.email, on: sql) else { return }
            try await tokens.replace(
                hash: RefreshToken.hash(token), user: user.id, purpose: .passwordReset, at: now,
                expiresAt: now.addingTimeInterval(resetLifetime), on: sql)
            try await queue.enqueue(
                mails.passwordReset(
                    name: user.name, link: "\(resetPage)?token=\(token)", token: token, minutes: Int(resetLifetime / 60),
                    in: Language(tag: user.locale)),
                to: MailAddress(user.email, name: user.name), on: sql)
        case .emailChange:
            // Taken by another account: nothing is sent, and the asker was answered as for a free one.
            guard let id = request.user, let user = try await users.user(id: id, on: sql),
                try await users.user(email: request.email, on: sql) == nil
            else { return }
            try await tokens.replace(
                hash: RefreshToken.hash(token), user: user.id, purpose: .emailChange, newEmail: request.email, at: now,
                expiresAt: now.addingTimeInterval(EmailAddresses.tokenLifetime), on: sql)
            try await queue.enqueue(
                mails.confirmNewAddress(
                    name: user.name, link: "\(verifyPage)?token=\(token)", token: token, in: Language(tag: user.locale)),
                to: MailAddress(request.email, name: user.name), on: sql)
        case .emailVerification:
            // Asked for by the signed-in owner of the address, so decided at once (`EmailAddresses.resend`).
            return
        }
    }
}
