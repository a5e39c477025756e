import Contracts
import SQLKit
import ServiceKit

/// Writes `auth.user.profileChanged` with the change it describes (same transaction).
struct ProfileEvents: Sendable {
    let outbox = Outbox()

    func published(_ user: User, on sql: any SQLDatabase) async throws {
        try await outbox.append(
            AuthEvent.profileChanged, aggregateID: user.id.description, payload: AuthEvent.ProfileChanged(profile: user.publicProfile),
            on: sql)
    }
}
