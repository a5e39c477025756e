import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Each user's draft ticket: a pick per fixture and a stake.
protocol SlipStore: Sendable {
    func picks(of user: UserID, on sql: any SQLDatabase) async throws -> [(fixture: MatchID, pick: Pick)]
    func stake(of user: UserID, on sql: any SQLDatabase) async throws -> Int?
    func setPick(_ pick: Pick, on fixture: MatchID, for user: UserID, at now: Date, on sql: any SQLDatabase) async throws
    func removePick(on fixture: MatchID, for user: UserID, on sql: any SQLDatabase) async throws
    func setStake(_ stake: Int?, for user: UserID, at now: Date, on sql: any SQLDatabase) async throws
    func clear(for user: UserID, on sql: any SQLDatabase) async throws
    /// A ticket on `fixtures` was placed: their picks leave the slip, and its stake with the last pick.
    /// (`PlaceTicketStatement` does the same in its one statement.)
    func placed(_ fixtures: [MatchID], for user: UserID, on sql: any SQLDatabase) async throws
}

struct SQLSlipStore: SlipStore {
    func picks(of user: UserID, on sql: any SQLDatabase) async throws -> [(fixture: MatchID, pick: Pick)] {
        try await sql.select().columns("fixture_id", "pick").from("slip_selections").where("user_id", .equal, SQLBind(user.description))
            .orderBy("added_at").orderBy("fixture_id").all().map { (try $0.typedID("fixture_id"), try $0.enumValue("pick")) }
    }

    func stake(of user: UserID, on sql: any SQLDatabase) async throws -> Int? {
        try await sql.select().column("stake").from("slips").where("user_id", .equal, SQLBind(user.description)).first()
            .flatMap { try $0.decode(column: "stake", as: Int?.self) }
    }

    func setPick(_ pick: Pick, on fixture: MatchID, for user: UserID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "slip_selections").columns("user_id", "fixture_id", "pick", "added_at")
            .values(SQLBind(user.description), SQLBind(fixture.description), SQLBind(pick.rawValue), SQLBind(now))
            .onConflict(with: ["user_id", "fixture_id"]) { $0.set(excludedValueOf: "pick") }.run()
    }

    func removePick(on fixture: MatchID, for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "slip_selections").where("user_id", .equal, SQLBind(user.description))
            .where("fixture_id", .equal, SQLBind(fixture.description)).run()
    }

    func setStake(_ stake: Int?, for user: UserID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "slips").columns("user_id", "stake", "updated_at")
            .values(SQLBind(user.description), SQLBind(stake), SQLBind(now))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "stake").set(excludedValueOf: "updated_at") }.run()
    }

    func placed(_ fixtures: [MatchID], for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "slip_selections").where("user_id", .equal, SQLBind(user.description))
            .where("fixture_id", .in, SQLBind.group(fixtures.map(\.description))).run()
        let left = try await sql.select().column("fixture_id").from("slip_selections").where("user_id", .equal, SQLBind(user.description))
            .limit(1).first()
        if left == nil { try await sql.delete(from: "slips").where("user_id", .equal, SQLBind(user.description)).run() }
    }

    func clear(for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "slip_selections").where("user_id", .equal, SQLBind(user.description)).run()
        try await sql.delete(from: "slips").where("user_id", .equal, SQLBind(user.description)).run()
    }
}
