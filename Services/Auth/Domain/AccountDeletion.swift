import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Deleting an account, from proof of a recent sign-in. At once, in one transaction: every session
/// ends, the member, their credentials, follows and data exports are gone (so sign-in is refused and the email is
/// free), Apple's refresh token is queued for revocation, and `auth.user.deleted` is published for
/// every other service to erase what it holds; what auth's own outbox still holds of them is erased
/// (`OutboxErasure`). Apple is then told at once, and again by
/// `AppleRevocationWorker` until it has taken it.
struct AccountDeletion: Sendable {
    let database: Database
    let users: any UserStore
    let store: any DeletionStore
    let exports: any ExportStore
    let hasher: PasswordHasher
    let verifier: TokenVerifier
    let facebook: FacebookVerifier
    let apple: AppleIdentityVerifier
    let google: GoogleIdentityVerifier
    let appleRevocations: AppleRevocations
    let outboxErasure: OutboxErasure
    /// Every deletion written down apart from the store, so a restore cannot bring it back.
    let journal: ErasureJournal
    let logger: Logger
    var outbox: Outbox { Outbox(now: now) }
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func delete(_ id: UserID, proof: DeleteAccountRequest) async throws {
        guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }) else {
            throw CommonError.unauthorized()
        }
        try await requireRecentSignIn(of: user, proof: proof)
        try await erase(user)
    }

    /// Deletes the account now: what `delete` does once the proof is checked, and what Apple's
    /// `account-delete` notification asks. Written to the journal first, unless it is the journal's
    /// own entry being applied again (`replay`).
    func erase(_ user: User, journaled: Bool = true) async throws {
        let at = now()
        if journaled { try await journal.record(user.id, at: at) }
        let ended = try await database.transaction { sql in
            let ended = try await store.erase(user, at: at, on: sql)
            if let sealed = user.appleRefreshToken {
                try await store.queueAppleRevocation(of: user.id, sealedToken: sealed, at: at, on: sql)
            }
            try await exports.removeAll(of: user.id, on: sql)
            try await outboxErasure.forget(user.id, on: sql)
            let event = try await outbox.append(
                AuthEvent.accountDeleted, aggregateID: user.id.description, payload: AuthEvent.AccountDeleted(userId: user.id), on: sql)
            try await store.record(deletionOf: user.id, event: event.id, at: at, on: sql)
            return ended
        }
        for session in ended { await verifier.revoke(session, revokedAt: at) }
        logger.notice("account \(user.id) deleted; \(ended.count) sessions ended")
        if user.appleRefreshToken != nil { await appleRevocations.drain() }
    }

    /// The password again, or a fresh token of the provider the account is linked to.
    private func requireRecentSignIn(of user: User, proof: DeleteAccountRequest) async throws {
        switch (proof.password, proof.provider, proof.token) {
        case (let password?, nil, nil):
            guard user.passwordHash != nil, try await hasher.verify(password, against: user.passwordHash) else {
                throw AuthError.reauthenticationRequired("The password is not this account's.")
            }
        case (nil, .apple?, let token?):
            let identity = try? await apple.verify(token, rawNonce: nil, name: nil)
            guard let identity, identity.providerUserID == user.appleID else {
                throw AuthError.reauthenticationRequired(
                    "Sign in with Apple again: the identity token is not this account's, or not fresh.")
            }
        case (nil, .google?, let token?):
            let identity = try? await google.verify(token, nonce: nil, fresh: true)
            guard let identity, identity.providerUserID == user.googleID else {
                throw AuthError.reauthenticationRequired("Sign in with Google again: the ID token is not this account's, or not fresh.")
            }
        case (nil, .facebook?, let token?):
            let identity = try? await facebook.verify(token)
            guard let identity, identity.providerUserID == user.facebookID else {
                throw AuthError.reauthenticationRequired("Sign in with Facebook again: the token is not this account's.")
            }
        default:
            throw AuthError.reauthenticationRequired("Send the password, or provider and token, of a sign-in just made.")
        }
    }
}
