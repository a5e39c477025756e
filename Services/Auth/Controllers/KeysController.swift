import Contracts
import Foundation
import Hummingbird
import JWTKit
import ServiceKit

/// The public keys that verify access tokens, and the internal feed of revoked sessions.
struct KeysController {
    let issuer: TokenIssuer
    let database: Database
    let sessions: any SessionStore

    func addPublic(to router: Router<HuddleRequestContext>) {
        router.get(RouterPath(Routes.jwks)) { _, _ in
            JSONResponse(await issuer.jwks, headers: [.cacheControl: "public, max-age=300"])
        }
    }

    var internalEndpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.get("sessions/revoked") { request, _ in
            let after = try request.query("after", as: Int64.self) ?? 0
            let since = Date().addingTimeInterval(-AccessClaims.lifetime - 60)
            return JSONResponse(try await database.read { sql in try await sessions.revocations(after: after, since: since, on: sql) })
        }
        return routes
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
