import Foundation
import SQLKit

/// Failed password sign-ins per email and client address, for throttling.
protocol LoginAttemptStore: Sendable {
    /// The email's failures since `since`, from any address, each marked whether it came from `client`.
    func failures(email: String, client: String, since: Date, on sql: any SQLDatabase) async throws -> [LoginThrottle.Failure]
    func recordFailure(email: String, client: String, at: Date, on sql: any SQLDatabase) async throws
    /// Forgets the email's failures (after a successful sign-in).
    func clear(email: String, on sql: any SQLDatabase) async throws
}

struct SQLLoginAttemptStore: LoginAttemptStore {
    func failures(email: String, client: String, since: Date, on sql: any SQLDatabase) async throws -> [LoginThrottle.Failure] {
        try await sql.select().columns("failed_at", "client").from("login_failures")
            .where("email", .equal, SQLBind(email)).where("failed_at", .greaterThan, SQLBind(since))
            .all().map { row in
                LoginThrottle.Failure(
                    at: try row.decode(column: "failed_at", as: Date.self),
                    fromThisClient: try row.decode(column: "client", as: String.self) == client)
            }
    }

    func recordFailure(email: String, client: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "login_failures").columns("email", "client", "failed_at")
            .values(SQLBind(email), SQLBind(client), SQLBind(at)).run()
    }

    func clear(email: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "login_failures").where("email", .equal, SQLBind(email)).run()
    }
}
