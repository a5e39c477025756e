public import Contracts
public import JWTKit
public import ServiceKit

/// Auth's internal API: the keys that verify access tokens and the sessions it has revoked.
public struct AuthClient: AccessKeySource {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
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

    /// Public profiles of `ids`, keyed by id; ids auth does not know are missing.
    public func profiles(_ ids: [UserID], requestID: String? = nil) async throws -> [UserID: PublicProfile] {
        guard !ids.isEmpty else { return [:] }
        let response = try await client.post(
            Routes.Internal.profiles, body: ProfilesRequest(ids: ids), as: ProfilesResponse.self, requestID: requestID)
        return Dictionary(response.items.map { ($0.id, $0) }) { first, _ in first }
    }

    /// The invitees of a team or game: 1 to 100 users, each once, all known to auth; otherwise a
    /// 422 naming `userIds` or the index of each unknown one.
    public func inviteeIDs(_ userIDs: [UserID], requestID: String? = nil) async throws -> [UserID] {
        guard (1...100).contains(userIDs.count) else { throw CommonError.invalid("userIds", "must list 1 to 100 users") }
        let unique = userIDs.reduce(into: [UserID]()) { if !$0.contains($1) { $0.append($1) } }
        let known = try await profiles(unique, requestID: requestID)
        let unknown = unique.enumerated().filter { known[$0.element] == nil }
        guard unknown.isEmpty else {
            throw CommonError.validation(unknown.map { .init(field: "userIds[\($0.offset)]", message: "no player with id \($0.element)") })
        }
        return unique
    }
}
