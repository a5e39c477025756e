import Contracts
import Foundation
import SQLKit

/// Moderators' suspensions (with an end) and bans (without), one per member: a later decision replaces
/// an earlier one.
protocol SuspensionStore: Sendable {
    func suspend(_ user: UserID, until: Date?, reason: String, case caseID: CaseID, at: Date, on sql: any SQLDatabase) async throws
    /// The suspension in force at `now`: `.some(nil)` for a ban, `.some(end)` for a suspension, nil for none.
    func suspension(of user: UserID, now: Date, on sql: any SQLDatabase) async throws -> Date??
    func remove(_ user: UserID, on sql: any SQLDatabase) async throws
}

struct SQLSuspensionStore: SuspensionStore {
    func suspend(_ user: UserID, until: Date?, reason: String, case caseID: CaseID, at: Date, on sql: any SQLDatabase) async throws {
        try await remove(user, on: sql)
        try await sql.insert(into: "suspensions").columns("user_id", "until", "reason", "case_id", "at")
            .values(SQLBind(user.description), SQLBind(until), SQLBind(reason), SQLBind(caseID.description), SQLBind(at)).run()
    }

    func suspension(of user: UserID, now: Date, on sql: any SQLDatabase) async throws -> Date?? {
        guard
            let row = try await sql.select().column("until").from("suspensions").where("user_id", .equal, SQLBind(user.description)).first()
        else { return nil }
        guard let until = try row.decode(column: "until", as: Date?.self) else { return .some(nil) }
        return until > now ? .some(until) : nil
    }

    func remove(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "suspensions").where("user_id", .equal, SQLBind(user.description)).run()
    }
}
