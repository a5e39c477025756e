import Contracts
import Foundation
import SQLKit

/// Who follows whom. Lists are newest first and paged by an exact sequence number.
protocol FollowStore: Sendable {
    /// Idempotent: following twice leaves one follow. True when this call started it.
    func follow(_ follower: UserID, _ followee: UserID, on sql: any SQLDatabase) async throws -> Bool
    func unfollow(_ follower: UserID, _ followee: UserID, on sql: any SQLDatabase) async throws
    /// Users `user` follows, with the position to continue after.
    func following(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(User, Int64)]
    func followers(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(User, Int64)]
}

struct SQLFollowStore: FollowStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    /// One statement, so two follows at once cannot both find none and both insert: on PostgreSQL the
    /// second insert failed on the pair's key (500s from a burst of sixteen).
    func follow(_ follower: UserID, _ followee: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "follows").columns("follower_id", "followee_id", "created_at")
            .values(SQLBind(follower.description), SQLBind(followee.description), SQLBind(now()))
            .ignoringConflicts().returning("seq").all().isEmpty
    }

    func unfollow(_ follower: UserID, _ followee: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "follows")
            .where("follower_id", .equal, SQLBind(follower.description))
            .where("followee_id", .equal, SQLBind(followee.description)).run()
    }

    func following(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(User, Int64)] {
        try await list(matching: "follower_id", user, joiningOn: "followee_id", before: before, limit: limit, on: sql)
    }

    func followers(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(User, Int64)] {
        try await list(matching: "followee_id", user, joiningOn: "follower_id", before: before, limit: limit, on: sql)
    }

    private func list(
        matching column: String, _ user: UserID, joiningOn other: String, before: Int64?, limit: Int, on sql: any SQLDatabase
    ) async throws -> [(User, Int64)] {
        var query = sql.select()
            .columns(SQLUserStore.columns.map { SQLColumn($0, table: "users") })
            .column(SQLColumn("seq", table: "follows"))
            .from("follows")
            .join(
                SQLIdentifier("users"), on: SQLBinaryExpression(SQLColumn("id", table: "users"), .equal, SQLColumn(other, table: "follows"))
            )
            .where(SQLColumn(column, table: "follows"), .equal, SQLBind(user.description))
        if let before { query = query.where(SQLColumn("seq", table: "follows"), .lessThan, SQLBind(before)) }
        return try await query.orderBy("seq", .descending).limit(limit).all().map { row in
            (try SQLUserStore.decode(row), try row.decode(column: "seq", as: Int64.self))
        }
    }
}
