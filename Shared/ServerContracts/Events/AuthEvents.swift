public import Contracts

/// Events auth publishes (`EventEnvelope.type`): a player's public profile as it now is, whenever
/// an account is created or its profile changes, so search can find players by name.
public enum AuthEvent {
    public static let profileChanged = EventType<ProfileChanged>("auth.user.profileChanged", owner: .auth)
    /// A player started following another (not sent again for a repeated follow).
    public static let followed = EventType<Followed>("auth.user.followed", owner: .auth)
    /// An account was deleted: every service that consumes it erases what it holds of the player, once.
    public static let accountDeleted = EventType<AccountDeleted>("auth.user.deleted", owner: .auth)
    // Published in the transaction that deletes the account: sessions, credentials and follows are
    // already gone from auth then.

    public struct AccountDeleted: Codable, Equatable, Sendable {
        public var userId: UserID
        public init(userId: UserID) { self.userId = userId }
    }

    public struct ProfileChanged: Codable, Equatable, Sendable {
        public var profile: PublicProfile
        /// The language the player is written to in (BCP 47), for notify; absent until they chose one.
        public var locale: String?
        public init(profile: PublicProfile, locale: String? = nil) {
            self.profile = profile
            self.locale = locale
        }
    }

    public struct Followed: Codable, Equatable, Sendable {
        public var follower: PublicProfile
        public var followedId: UserID
        public init(follower: PublicProfile, followedId: UserID) {
            self.follower = follower
            self.followedId = followedId
        }
    }
}
