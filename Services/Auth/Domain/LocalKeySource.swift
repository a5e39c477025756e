import Contracts
import Foundation
import JWTKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Auth verifies its own tokens from its own key and store, not over HTTP.
struct LocalKeySource: AccessKeySource {
    let issuer: TokenIssuer
    let database: Database
    let sessions: any SessionStore
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func publicKeys() async throws -> JWKS { await issuer.jwks }

    func revokedSessions(after cursor: Int64) async throws -> RevokedSessions {
        let since = now().addingTimeInterval(-AccessClaims.lifetime - 60)
        return try await database.read { sql in try await sessions.revocations(after: cursor, since: since, on: sql) }
    }
}
