import Contracts
import Foundation
import Logging
import SQLKit
import ServiceHTTP
import ServiceStore

/// Sign in with Apple's server-to-server notifications, verified as Apple signs them:
/// `consent-revoked` (the member stopped using Apple with this app) ends their sessions and unlinks
/// Apple; `account-delete` / `account-deleted` deletes the Huddle account as the member's own request
/// would; `email-disabled` / `email-enabled` (private relay forwarding) are recorded. A notification
/// about an Apple id no member has is taken and changes nothing.
struct AppleNotifications: Sendable {
    let database: Database
    let users: any UserStore
    let sessions: any SessionStore
    let verifier: TokenVerifier
    let apple: AppleIdentityVerifier
    let deletion: AccountDeletion
    let logger: Logger
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func receive(_ payload: String) async throws {
        let event = try await apple.verifyNotification(payload)
        guard var user = try await database.read({ sql in try await users.user(.apple, id: event.sub, on: sql) }) else {
            return logger.notice("Apple \(event.type) about an Apple id no member has")
        }
        switch event.type {
        case "consent-revoked":
            let at = now()
            user.appleID = nil
            user.appleRefreshToken = nil
            let unlinked = user
            let ended = try await database.transaction { sql in
                try await users.update(unlinked, on: sql)
                return try await sessions.revokeAll(of: unlinked.id, at: at, on: sql)
            }
            for session in ended { await verifier.revoke(session, revokedAt: at) }
        case "account-delete", "account-deleted":
            try await deletion.erase(user)
        case "email-disabled", "email-enabled":
            user.appleEmailForwarding = event.type == "email-enabled"
            let recorded = user
            try await database.transaction { sql in try await users.update(recorded, on: sql) }
        default:
            logger.notice("Apple notification of unknown type \(event.type) kept no state")
        }
    }
}
