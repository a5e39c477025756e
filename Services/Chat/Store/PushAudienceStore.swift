import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A player a message could be pushed to: their name (to tell whether the message names them) and
/// whether they muted the room.
struct Listener: Equatable, Sendable {
    var userId: UserID
    var name: String
    var muted: Bool
}

/// Who a room's message may be pushed to, asked of the store when notify pushes it: members and named
/// players who did not block the sender and have no socket subscribed to the room now, on any instance.
protocol PushAudienceStore: Sendable {
    /// The room's members but `sender`.
    func members(of room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws -> [Listener]
    /// Players called one of `names` but `sender` (the global and match rooms have no members: anyone may be named there).
    func named(_ names: Set<String>, in room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws
        -> [Listener]
}

struct SQLPushAudienceStore: PushAudienceStore {
    func members(of room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws -> [Listener] {
        try await sql.raw(
            """
            SELECT m.user_id, p.name, mu.user_id AS muted_by, mu.muted_until FROM room_members m
            LEFT JOIN people p ON p.user_id = m.user_id
            LEFT JOIN room_mutes mu ON mu.user_id = m.user_id AND mu.room_id = m.room_id
            WHERE m.room_id = \(bind: room.description) AND m.user_id <> \(bind: sender.description)
            AND \(Self.reachable(sender: sender, room: room, now: now, player: "m.user_id"))
            ORDER BY m.user_id
            """
        ).all().map { try Self.decode($0, now: now) }
    }

    func named(_ names: Set<String>, in room: RoomID, besides sender: UserID, at now: Date, on sql: any SQLDatabase) async throws
        -> [Listener]
    {
        guard !names.isEmpty else { return [] }
        return try await sql.raw(
            """
            SELECT p.user_id, p.name, mu.user_id AS muted_by, mu.muted_until FROM people p
            LEFT JOIN room_mutes mu ON mu.user_id = p.user_id AND mu.room_id = \(bind: room.description)
            WHERE p.name IN (\(binds: names.sorted())) AND p.user_id <> \(bind: sender.description)
            AND \(Self.reachable(sender: sender, room: room, now: now, player: "p.user_id"))
            ORDER BY p.user_id
            """
        ).all().map { try Self.decode($0, now: now) }
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

    private static func decode(_ row: any SQLRow, now: Date) throws -> Listener {
        let mutedBy = try row.decode(column: "muted_by", as: String?.self)
        let until = try row.decode(column: "muted_until", as: Date?.self)
        return Listener(
            userId: try row.typedID("user_id"), name: try row.decode(column: "name", as: String?.self) ?? "",
            muted: RoomMute.isMuted(mutedBy != nil, until: until, at: now))
    }
}
