public import Contracts
public import Foundation

/// `GET /internal/sessions/revoked?after=`: sessions revoked since a cursor, for every
/// service's token verifier to refuse their access tokens before those expire.
public struct RevokedSessions: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var sessionID: SessionID
        public var revokedAt: Date
        public init(sessionID: SessionID, revokedAt: Date) {
            self.sessionID = sessionID
            self.revokedAt = revokedAt
        }
    }
    public var items: [Entry]
    /// Pass back as `after` on the next poll.
    public var cursor: Int64
    public init(items: [Entry], cursor: Int64) {
        self.items = items
        self.cursor = cursor
    }
}

/// Internal: `POST /internal/users/profiles` — public profiles of the given users; unknown ids are left out.
public struct ProfilesRequest: Codable, Equatable, Sendable {
    public static let maxIDs = 1000
    public var ids: [UserID]
    public init(ids: [UserID]) { self.ids = ids }
}

public struct ProfilesResponse: Codable, Equatable, Sendable {
    public var items: [PublicProfile]
    public init(items: [PublicProfile]) { self.items = items }
}
