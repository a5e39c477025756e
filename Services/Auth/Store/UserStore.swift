import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceStore

/// Members, their profiles and how they sign in. Every method runs on the handle it is given,
/// so callers can combine several in one transaction.
protocol UserStore: Sendable {
    /// Inserts a new user. Fails with `AuthError.emailTaken`, writing nothing, when the email (or the
    /// provider account, which a concurrent sign-in linked first) is another member's.
    func insert(_ user: User, on sql: any SQLDatabase) async throws
    func user(id: UserID, on sql: any SQLDatabase) async throws -> User?
    /// Looks up by normalised (lower-case) email.
    func user(email: String, on sql: any SQLDatabase) async throws -> User?
    /// The member linked to `provider`'s account `id`.
    func user(_ provider: SignInProvider, id: String, on sql: any SQLDatabase) async throws -> User?
    /// Saves name, picture, sports and the Facebook, Apple and Google links.
    func update(_ user: User, on sql: any SQLDatabase) async throws
    /// Sets the password's hash (a reset or a change); `update` leaves it alone.
    func setPasswordHash(_ hash: String, of user: UserID, on sql: any SQLDatabase) async throws
    /// Marks the address proven (if it is not yet) and, with `email`, makes that the address.
    func verifyEmail(of user: UserID, changingTo email: String?, at: Date, on sql: any SQLDatabase) async throws
    func users(facebookIDs: [String], on sql: any SQLDatabase) async throws -> [User]
    func users(ids: [UserID], on sql: any SQLDatabase) async throws -> [User]
    /// Everyone, by id, after `id`: for full snapshots.
    func users(after id: String?, limit: Int, on sql: any SQLDatabase) async throws -> [User]
}

struct SQLUserStore: UserStore {
    static let columns = [
        "id", "email", "name", "picture_url", "sports", "password_hash", "facebook_id", "apple_id", "apple_refresh_token",
        "apple_email_forwarding", "roles", "created_at", "email_verified_at", "google_id", "picture", "locale",
    ]

    func insert(_ user: User, on sql: any SQLDatabase) async throws {
        if try await self.user(email: user.email, on: sql) != nil { throw AuthError.emailTaken }
        // On PostgreSQL two registrations of one email both pass the check above; the second insert
        // waits for the first to commit and finds the key taken. Ignoring the conflict writes nothing
        // and leaves the transaction usable, where a failed statement would have aborted it (500s
        // in a burst of sixteen registrations of one email).
        let inserted = try await sql.insert(into: "users").columns(Self.columns)
            .values(
                SQLBind(user.id.description), SQLBind(user.email), SQLBind(user.name), SQLBind(user.pictureUrl),
                SQLBind(user.sports.storedList), SQLBind(user.passwordHash), SQLBind(user.facebookID), SQLBind(user.appleID),
                SQLBind(user.appleRefreshToken), SQLBind(user.appleEmailForwarding),
                SQLBind(user.roles.sorted { $0.rawValue < $1.rawValue }.storedList), SQLBind(user.createdAt),
                SQLBind(user.emailVerifiedAt), SQLBind(user.googleID), SQLBind(try user.picture.map(StoredJSON.text)),
                SQLBind(user.locale)
            )
            .ignoringConflicts().returning("id").all()
        if inserted.isEmpty { throw AuthError.emailTaken }
    }

    func user(id: UserID, on sql: any SQLDatabase) async throws -> User? {
        try await one(where: "id", id.description, on: sql)
    }

    func user(email: String, on sql: any SQLDatabase) async throws -> User? {
        try await one(where: "email", email, on: sql)
    }

    func user(_ provider: SignInProvider, id: String, on sql: any SQLDatabase) async throws -> User? {
        try await one(where: "\(provider.rawValue)_id", id, on: sql)
    }

    func update(_ user: User, on sql: any SQLDatabase) async throws {
        try await sql.update("users")
            .set("name", to: SQLBind(user.name))
            .set("picture_url", to: SQLBind(user.pictureUrl))
            .set("picture", to: SQLBind(try user.picture.map(StoredJSON.text)))
            .set("sports", to: SQLBind(user.sports.storedList))
            .set("locale", to: SQLBind(user.locale))
            .set("facebook_id", to: SQLBind(user.facebookID))
            .set("apple_id", to: SQLBind(user.appleID))
            .set("google_id", to: SQLBind(user.googleID))
            .set("apple_refresh_token", to: SQLBind(user.appleRefreshToken))
            .set("apple_email_forwarding", to: SQLBind(user.appleEmailForwarding))
            .where("id", .equal, SQLBind(user.id.description))
            .run()
    }

    func verifyEmail(of user: UserID, changingTo email: String?, at: Date, on sql: any SQLDatabase) async throws {
        var update = sql.update("users")
        if let email {
            update = update.set("email", to: SQLBind(email)).set("email_verified_at", to: SQLBind(at))
        } else {
            update = update.set("email_verified_at", to: SQLFunction("COALESCE", args: SQLColumn("email_verified_at"), SQLBind(at)))
        }
        try await update.where("id", .equal, SQLBind(user.description)).run()
    }

    func setPasswordHash(_ hash: String, of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.update("users").set("password_hash", to: SQLBind(hash)).where("id", .equal, SQLBind(user.description)).run()
    }

    func users(facebookIDs: [String], on sql: any SQLDatabase) async throws -> [User] {
        guard !facebookIDs.isEmpty else { return [] }
        return try await sql.select().columns(Self.columns.map { SQLColumn($0) }).from("users")
            .where("facebook_id", .in, SQLBind.group(facebookIDs))
            .orderBy("name")
            .all().map(Self.decode)
    }

    func users(ids: [UserID], on sql: any SQLDatabase) async throws -> [User] {
        guard !ids.isEmpty else { return [] }
        return try await sql.select().columns(Self.columns.map { SQLColumn($0) }).from("users")
            .where("id", .in, SQLBind.group(ids.map(\.description)))
            .all().map(Self.decode)
    }

    func users(after id: String?, limit: Int, on sql: any SQLDatabase) async throws -> [User] {
        var query = sql.select().columns(Self.columns.map { SQLColumn($0) }).from("users")
        if let id { query = query.where("id", .greaterThan, SQLBind(id)) }
        return try await query.orderBy("id").limit(limit).all().map(Self.decode)
    }

    private func one(where column: String, _ value: String, on sql: any SQLDatabase) async throws -> User? {
        try await sql.select().columns(Self.columns.map { SQLColumn($0) }).from("users")
            .where(SQLColumn(column), .equal, SQLBind(value))
            .first().map(Self.decode)
    }

    static func decode(_ row: any SQLRow) throws -> User {
        User(
            id: try row.typedID("id"),
            email: try row.decode(column: "email", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            pictureUrl: try row.decode(column: "picture_url", as: String?.self),
            sports: try row.enumList("sports"),
            passwordHash: try row.decode(column: "password_hash", as: String?.self),
            facebookID: try row.decode(column: "facebook_id", as: String?.self),
            appleID: try row.decode(column: "apple_id", as: String?.self),
            appleRefreshToken: try row.decode(column: "apple_refresh_token", as: String?.self),
            appleEmailForwarding: try row.decode(column: "apple_email_forwarding", as: Bool?.self),
            roles: Set(try row.enumList("roles") as [Role]),
            createdAt: try row.decode(column: "created_at", as: Date.self),
            emailVerifiedAt: try row.decode(column: "email_verified_at", as: Date?.self),
            googleID: try row.decode(column: "google_id", as: String?.self), picture: try row.json("picture", as: AttachedPicture.self),
            locale: try row.decode(column: "locale", as: String?.self))
    }
}
