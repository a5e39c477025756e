import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A room's messages held for the end of a quiet interval: one row per room and due time, naming the
/// latest message and how many it stands for. Whom it goes to is asked of chat when it is due.
struct ChatPushBatch: Equatable, Sendable {
    var room: RoomID
    var due: Date
    /// The latest message's sender, room and id.
    var data: NotificationData
    /// How many messages it tells of (the latest shown).
    var messages = 1
}

/// Each room's pace of pushes (`ChatPushPacing.Window`) and its held batches.
protocol ChatPushWindowStore: Sendable {
    /// The room's window, locked until the transaction ends (two messages of one room taken at once must
    /// not both push at once).
    func window(of room: RoomID, on sql: any SQLDatabase) async throws -> ChatPushPacing.Window?
    func save(_ window: ChatPushPacing.Window, of room: RoomID, on sql: any SQLDatabase) async throws
    /// The batch due at `batch.due` tells of one message more, the latest; answers how many it tells of now.
    @discardableResult
    func hold(_ batch: ChatPushBatch, on sql: any SQLDatabase) async throws -> Int
    /// Up to `limit` batches due by `now`, locked for this transaction and marked sent.
    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [ChatPushBatch]
    /// When the soonest batch is due.
    func nextDue(on sql: any SQLDatabase) async throws -> Date?
}

struct SQLChatPushWindowStore: ChatPushWindowStore {
    let kind: Database.Kind

    func window(of room: RoomID, on sql: any SQLDatabase) async throws -> ChatPushPacing.Window? {
        var query = sql.select().columns("next_at", "held_until").from("chat_push_rooms").where(
            "room_id", .equal, SQLBind(room.description))
        if kind == .postgres { query = query.lockingClause(SQLLockingClause.update) }
        return try await query.first().map {
            ChatPushPacing.Window(
                nextAt: try $0.decode(column: "next_at", as: Date.self), heldUntil: try $0.decode(column: "held_until", as: Date?.self))
        }
    }

    func save(_ window: ChatPushPacing.Window, of room: RoomID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "chat_push_rooms").columns("room_id", "next_at", "held_until")
            .values(SQLBind(room.description), SQLBind(window.nextAt), SQLBind(window.heldUntil))
            .onConflict(with: ["room_id"]) { $0.set(excludedValueOf: "next_at").set(excludedValueOf: "held_until") }
            .run()
    }

    func hold(_ batch: ChatPushBatch, on sql: any SQLDatabase) async throws -> Int {
        let data = try StoredJSON.text(batch.data)
        return try await sql.insert(into: "chat_push_batches").columns("room_id", "due_at", "data", "messages", "state")
            .values(SQLBind(batch.room.description), SQLBind(batch.due), SQLBind(data), SQLBind(1), SQLBind("pending"))
            .onConflict(with: ["room_id", "due_at"]) {
                $0.set(excludedValueOf: "data").set("messages", to: SQLRaw("chat_push_batches.messages + 1"))
            }
            .returning("messages").first()?.decode(column: "messages", as: Int.self) ?? 1
    }

    func takeDue(_ limit: Int, at now: Date, on sql: any SQLDatabase) async throws -> [ChatPushBatch] {
        var query = sql.select().columns("room_id", "due_at", "data", "messages").from("chat_push_batches")
            .where("state", .equal, SQLBind("pending")).where("due_at", .lessThanOrEqual, SQLBind(now)).orderBy("due_at").limit(limit)
        if kind == .postgres { query = query.lockingClause(SQLRaw("FOR UPDATE SKIP LOCKED")) }
        var taken: [ChatPushBatch] = []
        for row in try await query.all() {
            let batch = ChatPushBatch(
                room: try row.typedID("room_id"), due: try row.decode(column: "due_at", as: Date.self),
                data: try row.requiredJSON("data", as: NotificationData.self),
                messages: try row.decode(column: "messages", as: Int.self))
            try await sql.update("chat_push_batches").set("state", to: SQLBind("sent"))
                .where("room_id", .equal, SQLBind(batch.room.description)).where("due_at", .equal, SQLBind(batch.due)).run()
            taken.append(batch)
        }
        return taken
    }

    func nextDue(on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column(SQLFunction("MIN", args: SQLColumn("due_at")), as: "due").from("chat_push_batches")
            .where("state", .equal, SQLBind("pending")).first()?.decode(column: "due", as: Date?.self)
    }
}
