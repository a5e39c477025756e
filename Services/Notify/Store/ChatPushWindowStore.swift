import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A room's pushes held for the end of a quiet interval: one row per room and due time, telling of
/// the latest message and how many it stands for; its players are those whose window holds a push
/// until then.
struct ChatPushBatch: Equatable, Sendable {
    var room: RoomID
    var due: Date
    var texts: NotificationText.Texts
    var data: NotificationData
    /// How many messages it tells of (the latest shown).
    var messages = 1
}

/// Each player's pace of pushes per room (`ChatPushPacing.Window`) and the rooms' held batches.
protocol ChatPushWindowStore: Sendable {
    /// The windows of `users` in `room`, locked until the transaction ends (two messages of one room
    /// taken at once must not both push at once).
    func windows(of users: [UserID], in room: RoomID, on sql: any SQLDatabase) async throws -> [UserID: ChatPushPacing.Window]
    func save(_ windows: [UserID: ChatPushPacing.Window], in room: RoomID, on sql: any SQLDatabase) async throws
    /// The batch due at `batch.due` tells of one message more, the latest; answers how many it tells of now.
    @discardableResult
    func hold(_ batch: ChatPushBatch, on sql: any SQLDatabase) async throws -> Int
    /// Up to `limit` batches due by `now`, locked for this transaction and marked sent, with their players.
    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [(ChatPushBatch, [UserID])]
    /// When the soonest batch is due.
    func nextDue(on sql: any SQLDatabase) async throws -> Date?
}

struct SQLChatPushWindowStore: ChatPushWindowStore {
    let kind: Database.Kind

    func windows(of users: [UserID], in room: RoomID, on sql: any SQLDatabase) async throws -> [UserID: ChatPushPacing.Window] {
        var found: [UserID: ChatPushPacing.Window] = [:]
        for slice in users.statementSlices() {
            var query = sql.select().columns("user_id", "next_at", "held_until").from("chat_push_windows")
                .where("room_id", .equal, SQLBind(room.description)).where("user_id", .in, SQLBind.group(slice.map(\.description)))
            if kind == .postgres { query = query.lockingClause(SQLLockingClause.update) }
            for row in try await query.all() {
                found[try row.typedID("user_id")] = ChatPushPacing.Window(
                    nextAt: try row.decode(column: "next_at", as: Date.self),
                    heldUntil: try row.decode(column: "held_until", as: Date?.self))
            }
        }
        return found
    }

    func save(_ windows: [UserID: ChatPushPacing.Window], in room: RoomID, on sql: any SQLDatabase) async throws {
        let rows = windows.sorted { $0.key.description < $1.key.description }
        for slice in rows.statementSlices() {
            try await sql.insert(into: "chat_push_windows").columns("user_id", "room_id", "next_at", "held_until")
                .rows(
                    slice.map { user, window in
                        [SQLBind(user.description), SQLBind(room.description), SQLBind(window.nextAt), SQLBind(window.heldUntil)]
                    }
                )
                .onConflict(with: ["user_id", "room_id"]) { $0.set(excludedValueOf: "next_at").set(excludedValueOf: "held_until") }
                .run()
        }
    }

    func hold(_ batch: ChatPushBatch, on sql: any SQLDatabase) async throws -> Int {
        let data = String(decoding: try HuddleJSON.encoder.encode(batch.data), as: UTF8.self)
        let texts = String(decoding: try HuddleJSON.encoder.encode(batch.texts), as: UTF8.self)
        return try await sql.insert(into: "chat_push_batches").columns("room_id", "due_at", "texts", "data", "messages", "state")
            .values(
                SQLBind(batch.room.description), SQLBind(batch.due), SQLBind(texts), SQLBind(data), SQLBind(1), SQLBind("pending")
            )
            .onConflict(with: ["room_id", "due_at"]) {
                $0.set(excludedValueOf: "texts").set(excludedValueOf: "data")
                    .set("messages", to: SQLRaw("chat_push_batches.messages + 1"))
            }
            .returning("messages").first()?.decode(column: "messages", as: Int.self) ?? 1
    }

    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [(ChatPushBatch, [UserID])] {
        var query = sql.select().columns("room_id", "due_at", "texts", "data", "messages").from("chat_push_batches")
            .where("state", .equal, SQLBind("pending")).where("due_at", .lessThanOrEqual, SQLBind(now)).orderBy("due_at").limit(limit)
        if kind == .postgres { query = query.lockingClause(SQLRaw("FOR UPDATE SKIP LOCKED")) }
        var taken: [(ChatPushBatch, [UserID])] = []
        for row in try await query.all() {
            let data = try row.decode(column: "data", as: String.self)
            let batch = ChatPushBatch(
                room: try row.typedID("room_id"), due: try row.decode(column: "due_at", as: Date.self),
                texts: try HuddleJSON.decoder.decode(
                    NotificationText.Texts.self, from: Data(try row.decode(column: "texts", as: String.self).utf8)),
                data: try HuddleJSON.decoder.decode(NotificationData.self, from: Data(data.utf8)),
                messages: try row.decode(column: "messages", as: Int.self))
            let room = SQLBind(batch.room.description), due = SQLBind(batch.due)
            let players = try await sql.select().column("user_id").from("chat_push_windows").where("room_id", .equal, room)
                .where("held_until", .equal, due).all().map { try $0.typedID("user_id") as UserID }
            try await sql.update("chat_push_batches").set("state", to: SQLBind("sent")).where("room_id", .equal, room)
                .where("due_at", .equal, due).run()
            taken.append((batch, players))
        }
        return taken
    }

    func nextDue(on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column(SQLFunction("MIN", args: SQLColumn("due_at")), as: "due").from("chat_push_batches")
            .where("state", .equal, SQLBind("pending")).first()?.decode(column: "due", as: Date?.self)
    }
}
