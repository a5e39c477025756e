import Contracts
import SQLKit
import ServerContracts
import ServiceStore

/// Writes `auth.user.profileChanged` and `auth.user.followed` with the change they describe (same
/// transaction).
struct ProfileEvents: Sendable {
    let outbox: Outbox

    func published(_ user: User, on sql: any SQLDatabase) async throws {
        try await outbox.append(
            AuthEvent.profileChanged, aggregateID: user.id.description,
            payload: AuthEvent.ProfileChanged(profile: user.publicProfile, locale: user.locale),
            on: sql)
    }

    func followed(_ follower: User, _ followed: UserID, on sql: any SQLDatabase) async throws {
        try await outbox.append(
            AuthEvent.followed, aggregateID: followed.description,
            payload: AuthEvent.Followed(follower: follower.publicProfile, followedId: followed), on: sql)
    }
}
