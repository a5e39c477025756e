import Contracts
import Foundation
import Hummingbird
import JWTKit
import ServiceKit

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
struct KeysController: Controller {
    let keys: LocalKeySource

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.keys, headers: [.cacheControl: "public, max-age=300"]) { _, _ in
            try JSONWebKeySet(await keys.publicKeys())
        }
    }
}

/// Auth verifies its own tokens from its own key and store, not over HTTP.
struct LocalKeySource: AccessKeySource {
    let issuer: TokenIssuer
    let database: Database
    let sessions: any SessionStore

    func publicKeys() async throws -> JWKS { await issuer.jwks }

    func revokedSessions(after cursor: Int64) async throws -> RevokedSessions {
        let since = Date().addingTimeInterval(-AccessClaims.lifetime - 60)
        return try await database.read { sql in try await sessions.revocations(after: cursor, since: since, on: sql) }
    }
}

extension JSONWebKeySet {
    /// The wire form of jwt-kit's key set.
    init(_ jwks: JWKS) throws {
        self = try HuddleJSON.decoder.decode(JSONWebKeySet.self, from: try HuddleJSON.encoder.encode(jwks))
    }
}
