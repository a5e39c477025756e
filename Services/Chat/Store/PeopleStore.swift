import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Players' display names and who blocked whom.
protocol PeopleStore: Sendable {
    func names(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: String]
    func setName(_ name: String, of user: UserID, on sql: any SQLDatabase) async throws
    /// The name and picture a profile event gives.
    func setProfile(name: String, picture: PictureSizes?, of user: UserID, on sql: any SQLDatabase) async throws
    /// True when this call blocked them (false when they already were).
    func block(_ blocked: UserID, by user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> Bool
    func unblock(_ blocked: UserID, by user: UserID, on sql: any SQLDatabase) async throws
    func block(of blocked: UserID, by user: UserID, on sql: any SQLDatabase) async throws -> ChatBlock?
    func blocks(by user: UserID, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<ChatBlock>
    /// Everyone `user` blocked.
    func blocked(by user: UserID, on sql: any SQLDatabase) async throws -> Set<UserID>
    /// Whether either of the two blocked the other.
    func blockedEitherWay(_ one: UserID, _ other: UserID, on sql: any SQLDatabase) async throws -> Bool
    /// Forgets a deleted account: its name, its blocks either way, its read markers, flood buckets and mutes.
    func forget(_ user: UserID, on sql: any SQLDatabase) async throws
}

struct SQLPeopleStore: PeopleStore {
    func names(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: String] {
        guard !users.isEmpty else { return [:] }
        let rows = try await sql.select().columns("user_id", "name").from("people")
            .where("user_id", .in, SQLBind.group(users.map(\.description))).all()
        return Dictionary(try rows.map { (try $0.typedID("user_id"), try $0.decode(column: "name", as: String.self)) }) { first, _ in first
        }
    }

    func setName(_ name: String, of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "people").columns("user_id", "name").values(SQLBind(user.description), SQLBind(name))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "name") }.run()
    }

    func setProfile(name: String, picture: PictureSizes?, of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "people").columns("user_id", "name", "picture")
            .values(SQLBind(user.description), SQLBind(name), SQLBind(try picture.map(StoredJSON.text)))
            .onConflict(with: ["user_id"]) { $0.set(excludedValueOf: "name").set(excludedValueOf: "picture") }.run()
    }

    func block(_ blocked: UserID, by user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "blocks").columns("user_id", "blocked_id", "blocked_at")
            .values(SQLBind(user.description), SQLBind(blocked.description), SQLBind(now))
            .ignoringConflicts(with: ["user_id", "blocked_id"]).returning("user_id").all().isEmpty
    }

    func unblock(_ blocked: UserID, by user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "blocks").where("user_id", .equal, SQLBind(user.description))
            .where("blocked_id", .equal, SQLBind(blocked.description)).run()
    }

    func block(of blocked: UserID, by user: UserID, on sql: any SQLDatabase) async throws -> ChatBlock? {
        try await sql.select().columns("blocked_id", "blocked_at").from("blocks").where("user_id", .equal, SQLBind(user.description))
            .where("blocked_id", .equal, SQLBind(blocked.description)).first().map(Self.decode)
    }

    func blocks(by user: UserID, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<ChatBlock> {
        var query = sql.select().columns("blocked_id", "blocked_at").from("blocks").where("user_id", .equal, SQLBind(user.description))
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("blocked_at"), id: SQLColumn("blocked_id"), descending: true))
        }
        let rows = try await query.orderBy("blocked_at", .descending).orderBy("blocked_id", .descending).limit(page.limit + 1).all()
            .map(Self.decode)
        return page.page(rows) { TimeCursor(time: $0.blockedAt, id: $0.userId).encoded }
    }

    func blocked(by user: UserID, on sql: any SQLDatabase) async throws -> Set<UserID> {
        Set(
            try await sql.select().column("blocked_id").from("blocks").where("user_id", .equal, SQLBind(user.description)).all()
                .map { try $0.typedID("blocked_id") })
    }

    func blockedEitherWay(_ one: UserID, _ other: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("user_id").from("blocks")
            .where { both in
                both.where { $0.where("user_id", .equal, SQLBind(one.description)).where("blocked_id", .equal, SQLBind(other.description)) }
                    .orWhere {
                        $0.where("user_id", .equal, SQLBind(other.description)).where("blocked_id", .equal, SQLBind(one.description))
                    }
            }
            .first() != nil
    }

    private static func decode(_ row: any SQLRow) throws -> ChatBlock {
        ChatBlock(userId: try row.typedID("blocked_id"), blockedAt: try row.decode(column: "blocked_at", as: Date.self))
    }

    func forget(_ user: UserID, on sql: any SQLDatabase) async throws {
        let id = SQLBind(user.description)
        try await sql.delete(from: "people").where("user_id", .equal, id).run()
        try await sql.delete(from: "blocks").where("user_id", .equal, id).orWhere("blocked_id", .equal, id).run()
        try await sql.delete(from: "read_markers").where("user_id", .equal, id).run()
        try await sql.delete(from: "flood_buckets").where("user_id", .equal, id).run()
        try await sql.delete(from: "room_mutes").where("user_id", .equal, id).run()
    }
}
