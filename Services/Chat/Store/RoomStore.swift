import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// A room as stored: its counters and, for a match, when it plays.
struct StoredRoom: Codable, Sendable, Equatable {
    let id: RoomID
    let kind: RoomKind
    let subject: String
    let name: String
    let lastSeq: Int
    let version: Int
    let startsAt: Date?
    let endedAt: Date?
    let closedAt: Date?
    let lastActivity: Date
}

/// One change of a room, as the live feed reads it.
struct RoomChange: Sendable, Equatable {
    enum Kind: String, Sendable { case message, edited, deleted, left }

    let version: Int
    let kind: Kind
    let messageID: ChatMessageID?
    let userID: UserID?
}

/// Rooms, who may use them, read markers, and each room's log of changes.
protocol RoomStore: Sendable {
    func room(_ id: RoomID, on sql: any SQLDatabase) async throws -> StoredRoom?
    func room(kind: RoomKind, subject: String, on sql: any SQLDatabase) async throws -> StoredRoom?
    /// Creates the room, or renames it and moves its dates; answers it as stored.
    func upsert(
        kind: RoomKind, subject: String, name: String, startsAt: Date?, endedAt: Date?, at now: Date, on sql: any SQLDatabase
    ) async throws -> StoredRoom
    func close(_ id: RoomID, at now: Date, on sql: any SQLDatabase) async throws
    func isMember(_ user: UserID, of room: RoomID, on sql: any SQLDatabase) async throws -> Bool
    /// True when the user was not a member before.
    func addMember(_ user: UserID, to room: RoomID, on sql: any SQLDatabase) async throws -> Bool
    /// True when the user was a member.
    func removeMember(_ user: UserID, from room: RoomID, on sql: any SQLDatabase) async throws -> Bool
    func members(of room: RoomID, on sql: any SQLDatabase) async throws -> [UserID]
    /// Every room `user` is a member of.
    func memberships(of user: UserID, on sql: any SQLDatabase) async throws -> [StoredRoom]
    /// My rooms: the global room and those with the user as a member (a match's room has its followers as members).
    /// My rooms (of `kind`), most recent activity first; with `kind` match, the matches' rooms open between the two times.
    func rooms(for user: UserID, kind: RoomKind?, matchesFrom: Date, matchesUntil: Date, page: PageRequest, on sql: any SQLDatabase)
        async throws -> Page<StoredRoom>
    func readSeq(of user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws -> Int
    /// Moves the marker forward to `seq` (never back).
    func markRead(_ seq: Int, by user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws
    /// Takes the room's next seq and version together, holding its row until the transaction ends.
    func nextSeq(of room: RoomID, at now: Date, on sql: any SQLDatabase) async throws -> (seq: Int, version: Int)
    /// Takes the room's next version, holding its row until the transaction ends.
    func nextVersion(of room: RoomID, on sql: any SQLDatabase) async throws -> Int
    func record(_ change: RoomChange, in room: RoomID, at date: Date, on sql: any SQLDatabase) async throws
    func changes(of room: RoomID, after version: Int, limit: Int, on sql: any SQLDatabase) async throws -> [RoomChange]
}

extension RetentionRule {
    /// A room's changes are read by its live feed to catch up between announcements, seconds behind; a
    /// socket that subscribes catches up from the messages themselves. A day is plenty.
    static let roomChanges = RetentionRule("roomchanges", table: "room_changes", column: "changed_at", defaultDays: 1)
}

struct SQLRoomStore: RoomStore {
    private static let columns = [
        "id", "kind", "subject", "name", "last_seq", "version", "starts_at", "ended_at", "closed_at", "last_activity",
    ]

    func room(_ id: RoomID, on sql: any SQLDatabase) async throws -> StoredRoom? {
        try await sql.select().columns(Self.columns).from("rooms").where("id", .equal, SQLBind(id.description)).first().map(Self.decode)
    }

    func room(kind: RoomKind, subject: String, on sql: any SQLDatabase) async throws -> StoredRoom? {
        try await sql.select().columns(Self.columns).from("rooms").where("kind", .equal, SQLBind(kind.rawValue))
            .where("subject", .equal, SQLBind(subject)).first().map(Self.decode)
    }

    func upsert(
        kind: RoomKind, subject: String, name: String, startsAt: Date?, endedAt: Date?, at now: Date, on sql: any SQLDatabase
    ) async throws -> StoredRoom {
        try await sql.insert(into: "rooms").columns("id", "kind", "subject", "name", "starts_at", "ended_at", "last_activity")
            .values(
                SQLBind(RoomID.timeOrdered(at: now).description), SQLBind(kind.rawValue), SQLBind(subject), SQLBind(name),
                SQLBind(startsAt), SQLBind(endedAt), SQLBind(now)
            )
            .onConflict(with: ["kind", "subject"]) {
                $0.set(excludedValueOf: "name").set(excludedValueOf: "starts_at").set(excludedValueOf: "ended_at")
            }
            .run()
        guard let room = try await room(kind: kind, subject: subject, on: sql) else { throw CorruptRow(column: "subject", value: subject) }
        return room
    }

    func close(_ id: RoomID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("rooms").set("closed_at", to: SQLBind(now)).where("id", .equal, SQLBind(id.description)).run()
    }

    func isMember(_ user: UserID, of room: RoomID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("user_id").from("room_members").where("room_id", .equal, SQLBind(room.description))
            .where("user_id", .equal, SQLBind(user.description)).first() != nil
    }

    func addMember(_ user: UserID, to room: RoomID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "room_members").columns("room_id", "user_id")
            .values(SQLBind(room.description), SQLBind(user.description)).ignoringConflicts(with: ["room_id", "user_id"])
            .returning("user_id").all().isEmpty
    }

    func removeMember(_ user: UserID, from room: RoomID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.delete(from: "room_members").where("room_id", .equal, SQLBind(room.description))
            .where("user_id", .equal, SQLBind(user.description)).returning("user_id").all().isEmpty
    }

    func memberships(of user: UserID, on sql: any SQLDatabase) async throws -> [StoredRoom] {
        var found: [StoredRoom] = []
        let ids = try await sql.select().column("room_id").from("room_members").where("user_id", .equal, SQLBind(user.description))
            .all().map { try $0.typedID("room_id") as RoomID }
        for id in ids { if let room = try await room(id, on: sql) { found.append(room) } }
        return found
    }

    func members(of room: RoomID, on sql: any SQLDatabase) async throws -> [UserID] {
        try await sql.select().column("user_id").from("room_members").where("room_id", .equal, SQLBind(room.description))
            .orderBy("user_id").all().map { try $0.typedID("user_id") }
    }

    func rooms(for user: UserID, kind: RoomKind?, matchesFrom: Date, matchesUntil: Date, page: PageRequest, on sql: any SQLDatabase)
        async throws -> Page<StoredRoom>
    {
        var query = sql.select().columns(Self.columns).from("rooms").where("closed_at", .is, SQLLiteral.null)
        if kind == .match {
            // Matches to choose from: live, or kicking off within the lead, whether followed or not.
            query = query.where("kind", .equal, SQLBind(RoomKind.match.rawValue)).where("starts_at", .lessThan, SQLBind(matchesUntil))
                .where { $0.where("ended_at", .is, SQLLiteral.null).orWhere("ended_at", .greaterThan, SQLBind(matchesFrom)) }
        } else {
            // The rooms I chose: the global room, and those I am in (a match's once I opened it).
            query = query.where { mine in
                mine.where("kind", .equal, SQLBind(RoomKind.global.rawValue))
                    .orWhere(
                        SQLColumn("id"), .in,
                        SQLGroupExpression(
                            sql.select().column("room_id").from("room_members").where("user_id", .equal, SQLBind(user.description))
                                .select))
            }
            if let kind { query = query.where("kind", .equal, SQLBind(kind.rawValue)) }
        }
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("last_activity"), id: SQLColumn("id"), descending: true))
        }
        let rows = try await query.orderBy("last_activity", .descending).orderBy("id", .descending).limit(page.limit + 1).all()
            .map(Self.decode)
        return page.page(rows) {
            TimeCursor(time: $0.lastActivity, id: $0.id).encoded
        } item: {
            $0
        }
    }

    func readSeq(of user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column("seq").from("read_markers").where("user_id", .equal, SQLBind(user.description))
            .where("room_id", .equal, SQLBind(room.description)).first()?.decode(column: "seq", as: Int.self) ?? 0
    }

    func markRead(_ seq: Int, by user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO read_markers (room_id, user_id, seq) VALUES (\(bind: room.description), \(bind: user.description), \(bind: seq))
            ON CONFLICT (user_id, room_id) DO UPDATE SET seq = excluded.seq WHERE read_markers.seq < excluded.seq
            """
        ).run()
    }

    func nextSeq(of room: RoomID, at now: Date, on sql: any SQLDatabase) async throws -> (seq: Int, version: Int) {
        guard
            let row = try await sql.raw(
                """
                UPDATE rooms SET last_seq = last_seq + 1, version = version + 1, last_activity = \(bind: now)
                WHERE id = \(bind: room.description) RETURNING last_seq, version
                """
            ).first()
        else { throw CommonError.missing(room) }
        return (try row.decode(column: "last_seq", as: Int.self), try row.decode(column: "version", as: Int.self))
    }

    func nextVersion(of room: RoomID, on sql: any SQLDatabase) async throws -> Int {
        guard
            let row = try await sql.raw("UPDATE rooms SET version = version + 1 WHERE id = \(bind: room.description) RETURNING version")
                .first()
        else { throw CommonError.missing(room) }
        return try row.decode(column: "version", as: Int.self)
    }

    func record(_ change: RoomChange, in room: RoomID, at date: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "room_changes").columns("room_id", "version", "kind", "message_id", "user_id", "changed_at")
            .values(
                SQLBind(room.description), SQLBind(change.version), SQLBind(change.kind.rawValue), SQLBind(change.messageID?.description),
                SQLBind(change.userID?.description), SQLBind(date)
            ).run()
    }

    func changes(of room: RoomID, after version: Int, limit: Int, on sql: any SQLDatabase) async throws -> [RoomChange] {
        try await sql.select().columns("version", "kind", "message_id", "user_id").from("room_changes")
            .where("room_id", .equal, SQLBind(room.description)).where("version", .greaterThan, SQLBind(version)).orderBy("version")
            .limit(limit).all()
            .map { row in
                RoomChange(
                    version: try row.decode(column: "version", as: Int.self), kind: try row.enumValue("kind"),
                    messageID: try row.decode(column: "message_id", as: String?.self).flatMap(ChatMessageID.init),
                    userID: try row.decode(column: "user_id", as: String?.self).flatMap(UserID.init))
            }
    }

    private static func decode(_ row: any SQLRow) throws -> StoredRoom {
        StoredRoom(
            id: try row.typedID("id"), kind: try row.enumValue("kind"), subject: try row.decode(column: "subject", as: String.self),
            name: try row.decode(column: "name", as: String.self), lastSeq: try row.decode(column: "last_seq", as: Int.self),
            version: try row.decode(column: "version", as: Int.self), startsAt: try row.decode(column: "starts_at", as: Date?.self),
            endedAt: try row.decode(column: "ended_at", as: Date?.self), closedAt: try row.decode(column: "closed_at", as: Date?.self),
            lastActivity: try row.decode(column: "last_activity", as: Date.self))
    }
}
