public import Contracts
import ServerContracts
public import ServiceHTTP

/// Catalog's internal API: teams, memberships, leagues and courses as other services need them.
/// Reads answer nil for something catalog does not have; a catalog that is down is a 503.
public struct CatalogClient: Sendable {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.client = InternalClient(.catalog, dependencies: dependencies, timeout: timeout)
    }

    public func team(_ id: TeamID, requestID: String? = nil) async throws -> Team? {
        try await client.call(CatalogAPI.Internal.team, path: [id], requestID: requestID)
    }

    /// The user's standing with the team, or nil when they have none.
    public func membership(of user: UserID, in team: TeamID, requestID: String? = nil) async throws -> TeamMembership? {
        try await client.call(CatalogAPI.Internal.membership, path: [team, user], requestID: requestID)
    }

    /// Everyone with a standing (manager, players, pending, invited); nil when there is no such team.
    public func members(of team: TeamID, requestID: String? = nil) async throws -> [TeamMembership]? {
        try await client.call(CatalogAPI.Internal.members, path: [team], requestID: requestID)?.items
    }

    public func league(_ id: LeagueID, requestID: String? = nil) async throws -> League? {
        try await client.call(CatalogAPI.Internal.league, path: [id], requestID: requestID)
    }

    public func teams(inLeague id: LeagueID, requestID: String? = nil) async throws -> [Team]? {
        try await client.call(CatalogAPI.Internal.leagueTeams, path: [id], requestID: requestID)?.items
    }

    /// A venue, nil when there is none with `id`.
    public func venue(_ id: VenueID, requestID: String? = nil) async throws -> Venue? {
        try await client.call(CatalogAPI.Internal.venue, path: [id], requestID: requestID)
    }

    /// A course with its holes.
    public func course(_ id: CourseID, requestID: String? = nil) async throws -> Course? {
        try await client.call(CatalogAPI.Internal.course, path: [id], requestID: requestID)
    }
}
