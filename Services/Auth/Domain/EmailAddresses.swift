import Contracts
import Foundation
import SQLKit
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Addresses proven by a mailed token: the one an account registered with, and a new one it moves
/// to. Nothing here tells anyone whether another account holds an address.
struct EmailAddresses: Sendable {
    /// How long a verification token works: a week, since people read mail late.
    static let tokenLifetime: TimeInterval = 7 * 86_400

    let database: Database
    let users: any UserStore
    let tokens: any AccountTokenStore
    let hasher: PasswordHasher
    let mails: AccountMails
    let queue: MailQueue
    let requests: AccountMailRequests
    /// The page a verification link opens (`mail.links.url` + `/verify-email`).
    let verifyPage: String
    let now: @Sendable () -> Date

    /// Queues the mail that proves `user`'s address, in the caller's transaction (registration).
    func mailVerification(to user: User, on sql: any SQLDatabase) async throws {
        let token = RefreshToken.generate(), now = self.now()
        try await tokens.replace(
            hash: RefreshToken.hash(token), user: user.id, purpose: .emailVerification, at: now,
            expiresAt: now.addingTimeInterval(Self.tokenLifetime), on: sql)
        try await queue.enqueue(
            mails.verifyAddress(name: user.name, link: "\(verifyPage)?token=\(token)", token: token, in: Language(tag: user.locale)),
            to: MailAddress(user.email, name: user.name), on: sql)
    }

    /// Mails the verification again, within the same limits as a reset; nothing when already proven.
    func resend(for id: UserID, client: String) async throws {
        try await database.transaction { sql in
            guard let user = try await users.user(id: id, on: sql), user.emailVerifiedAt == nil else { return }
            try await requests.admit(email: user.email, client: client, on: sql)
            try await mailVerification(to: user, on: sql)
        }
    }

    /// Proves an address from its token: the account's own, or the new one it moves to. Answers whose.
    func verify(_ request: VerifyEmailRequest) async throws -> UserID {
        let at = now()
        return try await database.transaction { sql in
            let hash = RefreshToken.hash(request.token)
            if let spent = try await tokens.spend(hash: hash, purpose: .emailVerification, at: at, on: sql) {
                try await users.verifyEmail(of: spent.user, changingTo: nil, at: at, on: sql)
                return spent.user
            }
            guard let spent = try await tokens.spend(hash: hash, purpose: .emailChange, at: at, on: sql), let email = spent.newEmail
            else { throw AuthError.invalidToken }
            // Taken since it was asked for: the token is spent, the address stays.
            if try await users.user(email: email, on: sql) != nil { throw AuthError.emailTaken }
            try await users.verifyEmail(of: spent.user, changingTo: email, at: at, on: sql)
            return spent.user
        }
    }

    /// Starts moving the account to a new address: a token to the new address, a notice to the old.
    /// A taken address is answered the same, after the same work, and mailed nothing (decided after
    /// the answer, by `AccountMailRequests`). An account with a password proves it.
    func change(_ request: ChangeEmailRequest, of id: UserID, client: String) async throws {
        let email = AuthValidation.normalizedEmail(request.email)
        try AuthValidation.require(AuthValidation.emailProblem(email))
        guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }) else {
            throw CommonError.unauthorized("This account no longer exists.")
        }
        if user.passwordHash != nil {
            guard let password = request.password, try await hasher.verify(password, against: user.passwordHash) else {
                throw AuthError.reauthenticationRequired("Changing the address needs the account's password.")
            }
        }
        guard email != user.email else { return }
        try await database.transaction { sql in
            try await requests.admit(email: email, client: client, on: sql)
            try await queue.enqueue(
                mails.addressChanging(name: user.name, newAddress: email, in: Language(tag: user.locale)),
                to: MailAddress(user.email, name: user.name), on: sql)
            try await requests.decideLater(PendingAccountMail(purpose: .emailChange, email: email, user: user.id), on: sql)
        }
    }
}
