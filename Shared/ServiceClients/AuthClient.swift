public import Contracts
public import JWTKit
public import ServiceKit

/// Auth's internal API: the keys that verify access tokens and the sessions it has revoked.
public struct AuthClient: AccessKeySource {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(2)) {
        self.client = InternalClient(.auth, dependencies: dependencies, timeout: timeout)
    }

    public func publicKeys() async throws -> JWKS {
        guard let jwks = try await client.get(Routes.jwks, as: JWKS.self) else {
            throw CommonError.dependencyUnavailable("auth")
        }
        return jwks
    }

    public func revokedSessions(after cursor: Int64) async throws -> RevokedSessions {
        guard let page = try await client.get("\(Routes.Internal.revokedSessions)?after=\(cursor)", as: RevokedSessions.self)
        else { throw CommonError.dependencyUnavailable("auth") }
        return page
    }
}
