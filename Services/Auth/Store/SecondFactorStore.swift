import Contracts
import Foundation
import SQLKit

/// A member's authenticator secret (pending until confirmed with a code), the last step a code was
/// taken for (so a code works once), and their recovery codes, kept as SHA-256.
protocol SecondFactorStore: Sendable {
    func factor(of user: UserID, on sql: any SQLDatabase) async throws -> StoredSecondFactor?
    /// A new secret waiting for its first code; replaces one not confirmed yet.
    func begin(_ user: UserID, secret: String, at: Date, on sql: any SQLDatabase) async throws
    func confirm(_ user: UserID, recoveryHashes: [String], at: Date, on sql: any SQLDatabase) async throws
    /// Records that a code of `step` was taken; false when one of that step or later already was.
    func take(step: Int64, of user: UserID, on sql: any SQLDatabase) async throws -> Bool
    /// Spends a recovery code; false when it is not one of the user's, or was spent.
    func spendRecovery(hash: String, of user: UserID, at: Date, on sql: any SQLDatabase) async throws -> Bool
    func remove(_ user: UserID, on sql: any SQLDatabase) async throws
}

struct StoredSecondFactor: Sendable, Equatable {
    var secret: String
    var confirmed: Bool
}

struct SQLSecondFactorStore: SecondFactorStore {
    func factor(of user: UserID, on sql: any SQLDatabase) async throws -> StoredSecondFactor? {
        try await sql.select().columns("secret", "confirmed_at").from("second_factors").where("user_id", .equal, SQLBind(user.description))
            .first().map { row in
                StoredSecondFactor(
                    secret: try row.decode(column: "secret", as: String.self),
                    confirmed: try row.decode(column: "confirmed_at", as: Date?.self) != nil)
            }
    }

    func begin(_ user: UserID, secret: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "second_factors").where("user_id", .equal, SQLBind(user.description)).run()
        try await sql.insert(into: "second_factors").columns("user_id", "secret", "created_at", "last_step")
            .values(SQLBind(user.description), SQLBind(secret), SQLBind(at), SQLBind(Int64(0))).run()
    }

    func confirm(_ user: UserID, recoveryHashes: [String], at: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("second_factors").set("confirmed_at", to: SQLBind(at)).where("user_id", .equal, SQLBind(user.description))
            .run()
        try await sql.delete(from: "recovery_codes").where("user_id", .equal, SQLBind(user.description)).run()
        for hash in recoveryHashes {
            try await sql.insert(into: "recovery_codes").columns("user_id", "hash").values(SQLBind(user.description), SQLBind(hash)).run()
        }
    }

    func take(step: Int64, of user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.update("second_factors").set("last_step", to: SQLBind(step)).where("user_id", .equal, SQLBind(user.description))
            .where("last_step", .lessThan, SQLBind(step)).returning("user_id").first() != nil
    }

    func spendRecovery(hash: String, of user: UserID, at: Date, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.update("recovery_codes").set("used_at", to: SQLBind(at)).where("user_id", .equal, SQLBind(user.description))
            .where("hash", .equal, SQLBind(hash)).where("used_at", .is, SQLLiteral.null).returning("user_id").first() != nil
    }

    func remove(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "second_factors").where("user_id", .equal, SQLBind(user.description)).run()
        try await sql.delete(from: "recovery_codes").where("user_id", .equal, SQLBind(user.description)).run()
    }
}
