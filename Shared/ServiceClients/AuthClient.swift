public import Contracts
import ServerContracts
public import ServiceHTTP

/// Auth's internal API for players' profiles. (Token verification reads auth through `AuthKeys`.)
public struct AuthClient: Sendable {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.client = InternalClient(.auth, dependencies: dependencies, timeout: timeout)
    }

    /// Public profiles of `ids`, keyed by id; ids auth does not know are missing.
    public func profiles(_ ids: [UserID], requestID: String? = nil) async throws -> [UserID: PublicProfile] {
        guard !ids.isEmpty else { return [:] }
        let response = try await client.call(AuthAPI.Internal.profiles, body: ProfilesRequest(ids: ids), requestID: requestID)
        return Dictionary(response.items.map { ($0.id, $0) }) { first, _ in first }
    }

    /// The invitees of a team or game: 1 to 100 users, each once, all known to auth; otherwise a
    /// 422 naming `userIds` or the index of each unknown one.
    public func inviteeIDs(_ userIDs: [UserID], requestID: String? = nil) async throws -> [UserID] {
        guard InviteRequest.count.contains(userIDs.count) else {
            throw CommonError.invalid("userIds", "must list \(InviteRequest.count.lowerBound) to \(InviteRequest.count.upperBound) users")
        }
        let unique = userIDs.reduce(into: [UserID]()) { if !$0.contains($1) { $0.append($1) } }
        let known = try await profiles(unique, requestID: requestID)
        let unknown = unique.enumerated().filter { known[$0.element] == nil }
        guard unknown.isEmpty else {
            throw CommonError.validation(unknown.map { .invalid("userIds[\($0.offset)]", "no player with id \($0.element)") })
        }
        return unique
    }
}
