import Contracts
import Foundation
import SQLKit
import ServiceFeatures
import ServiceStore

/// What deleting an account removes from auth, and the revocations at Apple still to make.
protocol DeletionStore: Sendable {
    /// Ends every session of `user` (recorded as revocations for the other services' polls), then
    /// removes its refresh tokens and sessions, the follows either way, its failed sign-ins and the
    /// member; answers the sessions ended.
    func erase(_ user: User, at: Date, on sql: any SQLDatabase) async throws -> [SessionID]
    /// Keeps Apple's sealed refresh token of a deleted member until Apple has taken its revocation.
    func queueAppleRevocation(of user: UserID, sealedToken: String, at: Date, on sql: any SQLDatabase) async throws
    func pendingAppleRevocations(limit: Int, on sql: any SQLDatabase) async throws -> [(user: UserID, sealedToken: String)]
    func clearAppleRevocation(of user: UserID, on sql: any SQLDatabase) async throws
    /// Remembers which event asked every service to erase `user`, for operators to follow.
    func record(deletionOf user: UserID, event: EventID, at: Date, on sql: any SQLDatabase) async throws
    func deletion(of user: UserID, on sql: any SQLDatabase) async throws -> (event: EventID, at: Date)?
}

struct SQLDeletionStore: DeletionStore {
    func erase(_ user: User, at: Date, on sql: any SQLDatabase) async throws -> [SessionID] {
        let id = SQLBind(user.id.description)
        let sessions = try await sql.select().column("id").from("sessions").where("user_id", .equal, id).all()
            .compactMap { SessionID(try $0.decode(column: "id", as: String.self)) }
        let open = try await sql.select().column("id").from("sessions").where("user_id", .equal, id).where(
            "revoked_at", .is, SQLLiteral.null
        )
        .all().compactMap { SessionID(try $0.decode(column: "id", as: String.self)) }
        for session in open {
            try await sql.insert(into: "session_revocations").columns("session_id", "revoked_at")
                .values(SQLBind(session.description), SQLBind(at)).run()
        }
        if !sessions.isEmpty {
            try await sql.delete(from: "refresh_tokens").where("session_id", .in, SQLBind.group(sessions.map(\.description))).run()
        }
        try await sql.delete(from: "sessions").where("user_id", .equal, id).run()
        try await sql.delete(from: "follows").where("follower_id", .equal, id).orWhere("followee_id", .equal, id).run()
        try await sql.delete(from: "login_failures").where("email", .equal, SQLBind(user.email)).run()
        try await SQLAccountTokenStore().erase(user: user.id, email: user.email, on: sql)
        try await SQLSecondFactorStore().remove(user.id, on: sql)
        try await MailQueue.erase(recipient: user.email, on: sql)
        try await sql.delete(from: "users").where("id", .equal, id).run()
        return open
    }

    func queueAppleRevocation(of user: UserID, sealedToken: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "apple_revocations").columns("user_id", "sealed_token", "queued_at")
            .values(SQLBind(user.description), SQLBind(sealedToken), SQLBind(at)).ignoringConflicts(with: ["user_id"]).run()
    }

    func pendingAppleRevocations(limit: Int, on sql: any SQLDatabase) async throws -> [(user: UserID, sealedToken: String)] {
        try await sql.select().columns("user_id", "sealed_token").from("apple_revocations").orderBy("queued_at").limit(limit).all()
            .map { (try $0.typedID("user_id"), try $0.decode(column: "sealed_token", as: String.self)) }
    }

    func clearAppleRevocation(of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "apple_revocations").where("user_id", .equal, SQLBind(user.description)).run()
    }

    func record(deletionOf user: UserID, event: EventID, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "deletions").columns("user_id", "event_id", "deleted_at")
            .values(SQLBind(user.description), SQLBind(event.description), SQLBind(at)).ignoringConflicts(with: ["user_id"]).run()
    }

    func deletion(of user: UserID, on sql: any SQLDatabase) async throws -> (event: EventID, at: Date)? {
        try await sql.select().columns("event_id", "deleted_at").from("deletions").where("user_id", .equal, SQLBind(user.description))
            .first().map { (try $0.typedID("event_id"), try $0.decode(column: "deleted_at", as: Date.self)) }
    }
}
