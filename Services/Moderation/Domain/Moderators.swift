import Contracts
import Foundation
import SQLKit
import ServiceClients
import ServiceHTTP
import ServiceStore

/// The moderator role: administrators hold it, and grant it to players and take it back.
struct Moderators: Sendable {
    let database: Database
    let store: any ModeratorStore
    let auth: AuthClient
    let now: @Sendable () -> Date

    /// Administrators hold the role from auth's list; the first time one works here they are recorded
    /// with the other moderators, so they are told of new cases too.
    func require(_ identity: Identity) async throws {
        if identity.isAdministrator {
            try identity.requireSecondFactorForStaffWork()
            // Idempotent: a repeat changes nothing.
            _ = try await database.transaction { sql in try await store.seed(identity.userID, at: now(), on: sql) }
            return
        }
        guard try await database.read({ sql in try await store.isModerator(identity.userID, on: sql) }) else {
            throw CommonError.forbidden("Only moderators work on cases.")
        }
        try identity.requireSecondFactorForStaffWork()
    }

    func grant(_ user: UserID, by identity: Identity) async throws -> Moderator {
        try requireAdministrator(identity)
        guard try await auth.profiles([user])[user] != nil else { throw CommonError.missing(user) }
        return try await database.transaction { sql in try await store.grant(user, by: identity.userID, at: now(), on: sql) }
    }

    func revoke(_ user: UserID, by identity: Identity) async throws {
        try requireAdministrator(identity)
        try await database.transaction { sql in try await store.revoke(user, on: sql) }
    }

    func list(for identity: Identity) async throws -> Page<Moderator> {
        try requireAdministrator(identity)
        return Page(items: try await database.read { sql in try await store.all(on: sql) }, nextCursor: nil)
    }

    private func requireAdministrator(_ identity: Identity) throws {
        guard identity.isAdministrator else { throw CommonError.forbidden("Only administrators grant the moderator role.") }
        try identity.requireSecondFactorForStaffWork()
    }
}
