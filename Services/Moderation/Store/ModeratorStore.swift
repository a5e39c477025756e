import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Who holds the moderator role (administrators hold it without a row).
protocol ModeratorStore: Sendable {
    func isModerator(_ user: UserID, on sql: any SQLDatabase) async throws -> Bool
    /// Grants the role; granting it again keeps the first grant.
    func grant(_ user: UserID, by admin: UserID, at: Date, on sql: any SQLDatabase) async throws -> Moderator
    /// Records an administrator, who holds the role without a grant.
    func seed(_ administrator: UserID, at: Date, on sql: any SQLDatabase) async throws -> Moderator
    func revoke(_ user: UserID, on sql: any SQLDatabase) async throws
    func all(on sql: any SQLDatabase) async throws -> [Moderator]
}

struct SQLModeratorStore: ModeratorStore {
    func isModerator(_ user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("user_id").from("moderators").where("user_id", .equal, SQLBind(user.description)).first() != nil
    }

    func grant(_ user: UserID, by admin: UserID, at: Date, on sql: any SQLDatabase) async throws -> Moderator {
        try await sql.insert(into: "moderators").columns("user_id", "granted_by", "granted_at")
            .values(SQLBind(user.description), SQLBind(admin.description), SQLBind(at)).ignoringConflicts(with: ["user_id"]).run()
        let row = try await sql.select().columns("user_id", "granted_by", "granted_at").from("moderators")
            .where("user_id", .equal, SQLBind(user.description)).first()
        return try Self.decode(try row.orMissing(user))
    }

    func seed(_ administrator: UserID, at: Date, on sql: any SQLDatabase) async throws -> Moderator {
        try await sql.insert(into: "moderators").columns("user_id", "granted_by", "granted_at")
            .values(SQLBind(administrator.description), SQLLiteral.null, SQLBind(at)).ignoringConflicts(with: ["user_id"]).run()
        return Moderator(userId: administrator, grantedBy: nil, grantedAt: at)
    }

    func revoke(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "moderators").where("user_id", .equal, SQLBind(user.description)).run()
    }

    func all(on sql: any SQLDatabase) async throws -> [Moderator] {
        try await sql.select().columns("user_id", "granted_by", "granted_at").from("moderators").orderBy("granted_at").orderBy("user_id")
            .all().map(Self.decode)
    }

    private static func decode(_ row: any SQLRow) throws -> Moderator {
        Moderator(
            userId: try row.typedID("user_id"),
            grantedBy: try row.decode(column: "granted_by", as: String?.self).flatMap(UserID.init),
            grantedAt: try row.decode(column: "granted_at", as: Date.self))
    }
}
