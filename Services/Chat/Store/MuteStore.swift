import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A player's mute of a room: until a time, or for good (`until` nil).
struct RoomMute: Equatable, Sendable {
    var until: Date?

    /// A mute counts until its time has passed: the rule as a condition on a row of `room_mutes`
    /// (named `row` in the statement), so that one mute and a room's thousand are judged alike.
    static func counts(at now: Date, row: String = "room_mutes") -> SQLQueryString {
        "(\(unsafeRaw: row).muted_until IS NULL OR \(unsafeRaw: row).muted_until > \(bind: now))"
    }
}

/// Players' mutes of rooms.
protocol MuteStore: Sendable {
    func mute(_ room: RoomID, by user: UserID, until: Date?, on sql: any SQLDatabase) async throws
    func unmute(_ room: RoomID, by user: UserID, on sql: any SQLDatabase) async throws
    /// The player's mute of the room if it still counts at `now`.
    func mute(of room: RoomID, by user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> RoomMute?
}

struct SQLMuteStore: MuteStore {
    func mute(_ room: RoomID, by user: UserID, until: Date?, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "room_mutes").columns("user_id", "room_id", "muted_until")
            .values(SQLBind(user.description), SQLBind(room.description), SQLBind(until))
            .onConflict(with: ["user_id", "room_id"]) { $0.set(excludedValueOf: "muted_until") }.run()
    }

    func unmute(_ room: RoomID, by user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "room_mutes").where("user_id", .equal, SQLBind(user.description))
            .where("room_id", .equal, SQLBind(room.description)).run()
    }

    func mute(of room: RoomID, by user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> RoomMute? {
        try await sql.raw(
            """
            SELECT muted_until FROM room_mutes
            WHERE user_id = \(bind: user.description) AND room_id = \(bind: room.description) AND \(RoomMute.counts(at: now))
            """
        ).first().map { RoomMute(until: try $0.decode(column: "muted_until", as: Date?.self)) }
    }
}
