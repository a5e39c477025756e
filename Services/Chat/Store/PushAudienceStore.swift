import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A player a message could be pushed to by name (a mention pushes even in a room its player muted).
struct Listener: Equatable, Sendable {
    var userId: UserID
    var name: String
}

/// A room's members a message may be pushed to, split by whether they muted the room.
struct RoomAudience: Equatable, Sendable {
    var listening: [UserID] = []
    var muted: [UserID] = []
}

/// Who a room's message may be pushed to, asked of the store when notify pushes it: members and named
/// players who did not block the sender and have no socket subscribed to the room now, on any instance.
protocol PushAudienceStore: Sendable {
    /// The room's members but `sender`.
    func members(of room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws -> RoomAudience
    /// Players called one of `names` but `sender`: only the room's members when `membersOnly` (the global
    /// and match rooms have no members: anyone may be named there).
    func named(
        _ names: Set<String>, in room: RoomID, membersOnly: Bool, besides sender: UserID, at now: Date, on sql: any SQLDatabase
    ) async throws -> [Listener]
}

struct SQLPushAudienceStore: PushAudienceStore {
    /// One row for those who muted the room and one for the others, each with its members' ids joined
    /// by commas: a team room's thousand members read as a row each took 6 ms a message (PostgreSQL's
    /// time included), most of it decoding the rows' columns one by one; as two strings, 3–4 ms.
    func members(of room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws -> RoomAudience {
        let joined = sql.dialect.name == "postgresql" ? "string_agg" : "group_concat"
        let muted: SQLQueryString = "mu.user_id IS NOT NULL AND \(RoomMute.counts(at: now, row: "mu"))"
        let rows = try await sql.raw(
            """
            SELECT CASE WHEN \(muted) THEN 1 ELSE 0 END AS muted, \(unsafeRaw: joined)(m.user_id, ',') AS ids
            FROM room_members m
            LEFT JOIN room_mutes mu ON mu.user_id = m.user_id AND mu.room_id = m.room_id
            WHERE m.room_id = \(bind: room.description) AND m.user_id <> \(bind: sender.description)
            AND \(Self.reachable(sender: sender, room: room, now: now, player: "m.user_id"))
            GROUP BY 1
            """
        ).all()
        var audience = RoomAudience()
        for row in rows {
            let ids: [UserID] = try row.joinedIDs("ids")
            if try row.decode(column: "muted", as: Int.self) == 1 { audience.muted = ids } else { audience.listening = ids }
        }
        return audience
    }

    func named(
        _ names: Set<String>, in room: RoomID, membersOnly: Bool, besides sender: UserID, at now: Date, on sql: any SQLDatabase
    ) async throws -> [Listener] {
        guard !names.isEmpty else { return [] }
        let membership: SQLQueryString =
            membersOnly
            ? "AND EXISTS (SELECT 1 FROM room_members m WHERE m.room_id = \(bind: room.description) AND m.user_id = p.user_id)" : ""
        return try await sql.raw(
            """
            SELECT p.user_id, p.name FROM people p
            WHERE p.name IN (\(binds: names.sorted())) AND p.user_id <> \(bind: sender.description) \(membership)
            AND \(Self.reachable(sender: sender, room: room, now: now, player: "p.user_id"))
            ORDER BY p.user_id
            """
        ).all().map { Listener(userId: try $0.typedID("user_id"), name: try $0.decode(column: "name", as: String.self)) }
    }

    /// `player` did not block the sender and has no socket subscribed to the room.
    private static func reachable(sender: UserID, room: RoomID, now: Date, player: String) -> SQLQueryString {
        """
        NOT EXISTS (SELECT 1 FROM blocks b WHERE b.user_id = \(unsafeRaw: player) AND b.blocked_id = \(bind: sender.description))
        AND NOT EXISTS (
            SELECT 1 FROM room_presence s WHERE s.room_id = \(bind: room.description) AND s.user_id = \(unsafeRaw: player)
            AND s.expires_at > \(bind: now))
        """
    }
}
