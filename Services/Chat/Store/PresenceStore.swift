import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Which socket is subscribed to which room, for every instance to see: a message is not pushed to a
/// player whose socket on any instance follows the room. Each row is renewed by its instance while
/// the socket lives, so the rows of an instance that died run out by themselves.
protocol PresenceStore: Sendable {
    func enter(_ socket: UUID, room: RoomID, user: UserID, instance: UUID, until: Date, on sql: any SQLDatabase) async throws
    func leave(_ socket: UUID, room: RoomID?, on sql: any SQLDatabase) async throws
    /// Renews every row of `instance` until `until`, and drops the rows that ran out before `now`.
    func renew(_ instance: UUID, until: Date, now: Date, on sql: any SQLDatabase) async throws
}

struct SQLPresenceStore: PresenceStore {
    func enter(_ socket: UUID, room: RoomID, user: UserID, instance: UUID, until: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "room_presence").columns("socket_id", "room_id", "user_id", "instance_id", "expires_at")
            .values(
                SQLBind(socket.uuidString), SQLBind(room.description), SQLBind(user.description), SQLBind(instance.uuidString),
                SQLBind(until)
            )
            .onConflict(with: ["socket_id", "room_id"]) { $0.set(excludedValueOf: "expires_at") }.run()
    }

    /// One room's row of the socket, or every row of it (`room` nil: the socket closed).
    func leave(_ socket: UUID, room: RoomID?, on sql: any SQLDatabase) async throws {
        var delete = sql.delete(from: "room_presence").where("socket_id", .equal, SQLBind(socket.uuidString))
        if let room { delete = delete.where("room_id", .equal, SQLBind(room.description)) }
        try await delete.run()
    }

    func renew(_ instance: UUID, until: Date, now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("room_presence").set("expires_at", to: SQLBind(until))
            .where("instance_id", .equal, SQLBind(instance.uuidString)).run()
        try await sql.delete(from: "room_presence").where("expires_at", .lessThanOrEqual, SQLBind(now)).run()
    }
}
