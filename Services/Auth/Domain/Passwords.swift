import Contracts
import Foundation
import SQLKit
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// A forgotten password reset from a mailed token, and a known one changed. Either ends every other
/// session of the account and tells its owner by mail.
struct Passwords: Sendable {
    let database: Database
    let users: any UserStore
    let sessions: any SessionStore
    let tokens: any AccountTokenStore
    let attempts: any LoginAttemptStore
    let accounts: Accounts
    let mails: AccountMails
    let queue: MailQueue
    let requests: AccountMailRequests
    let now: @Sendable () -> Date

    /// Mails a reset token to the account with `email`, if there is one. Answers the same, after the
    /// same work in the store, whether or not there is (the address is looked up after the answer,
    /// by `AccountMailRequests`): who has an account is nobody's to find out.
    func forgot(_ request: ForgotPasswordRequest, client: String) async throws {
        let email = AuthValidation.normalizedEmail(request.email)
        try AuthValidation.require(AuthValidation.emailProblem(email))
        try await database.transaction { sql in
            try await requests.admit(email: email, client: client, on: sql)
            try await requests.decideLater(PendingAccountMail(purpose: .passwordReset, email: email), on: sql)
        }
    }

    /// Sets the password from a reset token and signs in; every other session ends.
    func reset(_ request: ResetPasswordRequest) async throws -> Contracts.Session {
        try AuthValidation.require(AuthValidation.passwordProblem(request.password))
        let hash = try await accounts.hasher.hash(request.password)
        let at = now()
        let (user, ended) = try await database.transaction { sql -> (User, [SessionID]) in
            guard let spent = try await tokens.spend(hash: RefreshToken.hash(request.token), purpose: .passwordReset, at: at, on: sql),
                let changed = try await users.user(id: spent.user, on: sql)
            else { throw AuthError.invalidToken }
            try await users.setPasswordHash(hash, of: changed.id, on: sql)
            // The token came to the address: it is proven.
            try await users.verifyEmail(of: changed.id, changingTo: nil, at: at, on: sql)
            try await attempts.clear(email: changed.email, on: sql)
            try await queue.enqueue(
                mails.passwordChanged(name: changed.name, in: Language(tag: changed.locale)),
                to: MailAddress(changed.email, name: changed.name), on: sql)
            return (changed, try await sessions.revokeAll(of: changed.id, at: at, on: sql))
        }
        for session in ended { await accounts.verifier.revoke(session, revokedAt: at) }
        return try await accounts.signedIn(user)
    }

    /// Changes the password of the signed-in player, who proves the current one; the other sessions end.
    func change(_ request: ChangePasswordRequest, user id: UserID, session: SessionID) async throws {
        try AuthValidation.require(AuthValidation.passwordProblem(request.newPassword, field: "newPassword"))
        guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }),
            user.passwordHash != nil, try await accounts.hasher.verify(request.currentPassword, against: user.passwordHash)
        else {
            throw AuthError.reauthenticationRequired(
                "The current password is wrong; an account made with Apple, Facebook or Google sets one with a reset.")
        }
        let hash = try await accounts.hasher.hash(request.newPassword)
        let at = now()
        let updated = user
        let ended = try await database.transaction { sql in
            try await users.setPasswordHash(hash, of: updated.id, on: sql)
            try await queue.enqueue(
                mails.passwordChanged(name: updated.name, in: Language(tag: updated.locale)),
                to: MailAddress(updated.email, name: updated.name), on: sql)
            return try await sessions.revokeAll(of: updated.id, except: session, at: at, on: sql)
        }
        for ended in ended { await accounts.verifier.revoke(ended, revokedAt: at) }
    }
}
