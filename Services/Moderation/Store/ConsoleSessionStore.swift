import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A console session as stored: keyed by the SHA-256 of the browser's cookie (the cookie itself is
/// kept nowhere), with the moderator's auth session sealed (`TokenSealer`).
struct StoredConsoleSession: Sendable, Equatable {
    var id: String
    var userID: UserID
    /// The moderator's name as auth gave it at sign-in, for the page header.
    var name: String
    var csrf: String
    var sealedAccessToken: String
    var sealedRefreshToken: String
    var expiresAt: Date
}

/// The console's sessions, in moderation's store so that every instance knows each one.
protocol ConsoleSessionStore: Sendable {
    func insert(_ session: StoredConsoleSession, at: Date, on sql: any SQLDatabase) async throws
    /// The session, locked for the rest of the transaction when `locking` (PostgreSQL): two requests
    /// that find its access token expired refresh it once.
    func session(_ id: String, locking: Bool, on sql: any SQLDatabase) async throws -> StoredConsoleSession?
    func replaceTokens(of id: String, access: String, refresh: String, on sql: any SQLDatabase) async throws
    func delete(_ id: String, on sql: any SQLDatabase) async throws
    func deleteAll(of user: UserID, on sql: any SQLDatabase) async throws
    func deleteExpired(before: Date, on sql: any SQLDatabase) async throws
}

struct SQLConsoleSessionStore: ConsoleSessionStore {
    private static let columns = ["id", "user_id", "name", "csrf", "access_token", "refresh_token", "expires_at"]

    func insert(_ session: StoredConsoleSession, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "console_sessions").columns(Self.columns + ["created_at"])
            .values(
                SQLBind(session.id), SQLBind(session.userID.description), SQLBind(session.name), SQLBind(session.csrf),
                SQLBind(session.sealedAccessToken),
                SQLBind(session.sealedRefreshToken), SQLBind(session.expiresAt), SQLBind(at)
            ).run()
    }

    func session(_ id: String, locking: Bool, on sql: any SQLDatabase) async throws -> StoredConsoleSession? {
        var query = sql.select().columns(Self.columns).from("console_sessions").where("id", .equal, SQLBind(id))
        if locking { query = query.for(.update) }
        guard let row = try await query.first() else { return nil }
        return StoredConsoleSession(
            id: try row.decode(column: "id", as: String.self), userID: try row.typedID("user_id"),
            name: try row.decode(column: "name", as: String.self), csrf: try row.decode(column: "csrf", as: String.self),
            sealedAccessToken: try row.decode(column: "access_token", as: String.self),
            sealedRefreshToken: try row.decode(column: "refresh_token", as: String.self),
            expiresAt: try row.decode(column: "expires_at", as: Date.self))
    }

    func replaceTokens(of id: String, access: String, refresh: String, on sql: any SQLDatabase) async throws {
        try await sql.update("console_sessions").set("access_token", to: SQLBind(access)).set("refresh_token", to: SQLBind(refresh))
            .where("id", .equal, SQLBind(id)).run()
    }

    func delete(_ id: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "console_sessions").where("id", .equal, SQLBind(id)).run()
    }

    func deleteAll(of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "console_sessions").where("user_id", .equal, SQLBind(user.description)).run()
    }

    func deleteExpired(before: Date, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "console_sessions").where("expires_at", .lessThan, SQLBind(before)).run()
    }
}
