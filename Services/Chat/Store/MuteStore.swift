import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A player's mute of a room: until a time, or for good (`until` nil).
struct RoomMute: Equatable, Sendable {
    var until: Date?

    /// A mute counts until its time has passed.
    static func isMuted(_ muted: Bool, until: Date?, at now: Date) -> Bool { muted && (until.map { $0 > now } ?? true) }
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
        guard
            let row = try await sql.select().column("muted_until").from("room_mutes").where("user_id", .equal, SQLBind(user.description))
                .where("room_id", .equal, SQLBind(room.description)).first()
        else { return nil }
        let until = try row.decode(column: "muted_until", as: Date?.self)
        return RoomMute.isMuted(true, until: until, at: now) ? RoomMute(until: until) : nil
    }
}
