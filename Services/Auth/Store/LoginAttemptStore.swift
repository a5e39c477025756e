import Foundation
import SQLKit

/// Failed password logins per email, for throttling.
protocol LoginAttemptStore: Sendable {
    func failures(email: String, since: Date, on sql: any SQLDatabase) async throws -> [Date]
    func recordFailure(email: String, at: Date, on sql: any SQLDatabase) async throws
    /// Forgets the email's failures (after a successful login).
    func clear(email: String, on sql: any SQLDatabase) async throws
}

struct SQLLoginAttemptStore: LoginAttemptStore {
    func failures(email: String, since: Date, on sql: any SQLDatabase) async throws -> [Date] {
        try await sql.select().column("failed_at").from("login_failures")
            .where("email", .equal, SQLBind(email)).where("failed_at", .greaterThan, SQLBind(since))
            .all(decodingColumn: "failed_at", as: Date.self)
    }

    func recordFailure(email: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "login_failures").columns("email", "failed_at")
            .values(SQLBind(email), SQLBind(at)).run()
    }

    func clear(email: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "login_failures").where("email", .equal, SQLBind(email)).run()
    }
}
