import Contracts
import Foundation
public import JWTKit
public import ServerContracts

/// Where every module but auth gets what verifies access tokens: auth's public keys and the
/// sessions it revoked, over auth's internal API.
public struct AuthKeys: AccessKeySource {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.client = InternalClient(.auth, dependencies: dependencies, timeout: timeout)
    }

    public func publicKeys() async throws -> JWKS {
        guard let keys = try await client.call(AuthAPI.keys) else { throw CommonError.dependencyUnavailable("auth") }
        return try HuddleJSON.decoder.decode(JWKS.self, from: try HuddleJSON.encoder.encode(keys))
    }

    public func revokedSessions(after cursor: Int64) async throws -> RevokedSessions {
        guard let page = try await client.call(AuthAPI.Internal.revokedSessions, query: AuthAPI.Internal.revokedAfter(cursor)) else {
            throw CommonError.dependencyUnavailable("auth")
        }
        return page
    }
}
