import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceClients
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Players' profiles and follows: what a player sees of themselves and of others, changing one's
/// own profile (published to search), following, and matching Facebook friends.
struct Profiles: Sendable {
    let database: Database
    let users: any UserStore
    let follows: any FollowStore
    /// Names with a filtered word are refused.
    let filter: ContentFilter
    /// Attaches an uploaded picture, and lets a replaced one go.
    let media: MediaClient
    let logger: Logger
    var events: ProfileEvents { ProfileEvents(outbox: Outbox(now: database.now)) }

    static let maxFriendIDs = FriendMatchRequest.maxFacebookIDs
    static let maxProfileIDs = ProfilesRequest.maxIDs

    func me(_ id: UserID) async throws -> MyProfile {
        try await account(id).myProfile
    }

    /// Changes what the body names. A picture is either an address (`pictureUrl`) or an upload
    /// (`pictureMediaId`, attached through media first); the picture it replaces is let go once the
    /// change is kept.
    func update(_ id: UserID, with body: UpdateProfileRequest) async throws -> MyProfile {
        try AuthValidation.require(
            body.name.flatMap(AuthValidation.nameProblem), body.pictureUrl.flatMap { $0.flatMap(AuthValidation.pictureUrlProblem) },
            body.pictureUrl != nil && body.pictureMediaId != nil
                ? .invalid("pictureMediaId", "give pictureUrl or pictureMediaId, not both") : nil)
        if let name = body.name { try filter.refuse(name, field: "name") }
        let uploaded: AttachedPicture? =
            if case .some(.some(let media)) = body.pictureMediaId {
                try await self.media.picture(media, by: id, as: .avatar, to: MediaSubject(.user, id), field: "pictureMediaId")
            } else { nil }
        let (profile, replaced) = try await database.transaction { sql in
            guard var user = try await users.user(id: id, on: sql) else {
                throw CommonError.unauthorized("This account no longer exists.")
            }
            let before = user.picture
            if let name = body.name { user.name = name.trimmingBlanks }
            if let address = body.pictureUrl {
                user.pictureUrl = address
                user.picture = nil
            }
            if let media = body.pictureMediaId {
                user.picture = media == nil ? nil : uploaded
                user.pictureUrl = user.picture?.sizes.medium
            }
            if let sports = body.sports {
                var seen = Set<Sport>()
                user.sports = sports.filter { seen.insert($0).inserted }
            }
            if let locale = body.locale { user.locale = locale }
            try await users.update(user, on: sql)
            try await events.published(user, on: sql)
            return (user.myProfile, before.flatMap { $0.mediaId == user.picture?.mediaId ? nil : $0.mediaId })
        }
        if let replaced { await media.releaseReplaced(replaced, from: MediaSubject(.user, id), logger: logger) }
        return profile
    }

    func profile(_ id: UserID) async throws -> PublicProfile {
        try await player(id).publicProfile
    }

    func follow(_ followee: UserID, by follower: UserID) async throws {
        let followee = try await player(followee)
        guard followee.id != follower else { throw AuthError.cannotFollowSelf }
        try await database.transaction { sql in
            guard try await follows.follow(follower, followee.id, on: sql), let who = try await users.user(id: follower, on: sql) else {
                return
            }
            try await events.followed(who, followee.id, on: sql)
        }
    }

    func unfollow(_ followee: UserID, by follower: UserID) async throws {
        let followee = try await player(followee)
        try await database.transaction { sql in try await follows.unfollow(follower, followee.id, on: sql) }
    }

    func following(of user: UserID, page: PageRequest) async throws -> Page<PublicProfile> {
        try await list(page) { before, limit, sql in try await follows.following(of: user, before: before, limit: limit, on: sql) }
    }

    func followers(of user: UserID, page: PageRequest) async throws -> Page<PublicProfile> {
        try await list(page) { before, limit, sql in try await follows.followers(of: user, before: before, limit: limit, on: sql) }
    }

    /// Which of these Facebook ids belong to members other than `user`.
    func matchFriends(_ facebookIDs: [String], for user: UserID) async throws -> FriendMatchResponse {
        guard facebookIDs.count <= Self.maxFriendIDs else {
            throw CommonError.invalid("facebookIds", "must hold at most \(Self.maxFriendIDs) ids")
        }
        let found = try await database.read { sql in try await users.users(facebookIDs: facebookIDs, on: sql) }
        let matches = found.filter { $0.id != user }.compactMap { found in
            found.facebookID.map { FriendMatch(facebookId: $0, profile: found.publicProfile) }
        }
        return FriendMatchResponse(items: matches)
    }

    /// For other modules: public profiles of these users; unknown ids are left out.
    func publicProfiles(_ ids: [UserID]) async throws -> ProfilesResponse {
        guard ids.count <= Self.maxProfileIDs else { throw CommonError.invalid("ids", "must hold at most \(Self.maxProfileIDs) ids") }
        let found = try await database.read { sql in try await users.users(ids: ids, on: sql) }
        return ProfilesResponse(items: found.map(\.publicProfile))
    }

    /// Every profile, page by page, for a read model rebuilding itself (search).
    func snapshot(_ page: PageRequest) async throws -> Page<PublicProfile> {
        let found = try await database.read { sql in try await users.users(after: page.cursor, limit: page.limit + 1, on: sql) }
        return page.page(found, cursor: { PageRequest.cursor($0.id.description) }, item: \.publicProfile)
    }

    private func account(_ id: UserID) async throws -> User {
        guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }) else {
            throw CommonError.unauthorized("This account no longer exists.")
        }
        return user
    }

    private func player(_ id: UserID) async throws -> User {
        return try await database.read { sql in try await users.user(id: id, on: sql) }.orMissing(id)
    }

    private func list(
        _ page: PageRequest, fetch: @escaping @Sendable (Int64?, Int, any SQLDatabase) async throws -> [(User, Int64)]
    ) async throws -> Page<PublicProfile> {
        let before = try page.integerCursor()
        let rows = try await database.read { sql in try await fetch(before, page.limit + 1, sql) }
        return page.page(rows, cursor: { PageRequest.cursor(String($0.1)) }, item: { $0.0.publicProfile })
    }
}
