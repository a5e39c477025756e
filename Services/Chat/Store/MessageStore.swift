import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Which of a room's messages a page holds.
enum HistoryWindow: Equatable, Sendable {
    /// The newest, or those before a seq: newest first.
    case before(Int?)
    /// Those after a seq: oldest first.
    case after(Int)
}

/// Rooms' messages. Reads for a viewer leave out the messages of players the viewer blocked.
protocol MessageStore: Sendable {
    /// Inserts the message; false (nothing written) when its sender already sent `clientMessageId` to the room.
    func insert(_ message: ChatMessage, on sql: any SQLDatabase) async throws -> Bool
    func message(_ id: ChatMessageID, on sql: any SQLDatabase) async throws -> ChatMessage?
    func message(in room: RoomID, from sender: UserID, clientMessageId: String, on sql: any SQLDatabase) async throws -> ChatMessage?
    func messages(_ ids: [ChatMessageID], on sql: any SQLDatabase) async throws -> [ChatMessageID: ChatMessage]
    func history(of room: RoomID, _ window: HistoryWindow, limit: Int, viewer: UserID, on sql: any SQLDatabase) async throws
        -> [ChatMessage]
    func edit(_ id: ChatMessageID, text: String, at now: Date, on sql: any SQLDatabase) async throws
    func delete(_ id: ChatMessageID, at now: Date, on sql: any SQLDatabase) async throws
    /// Withholds the message from `since` (nil: shows it again).
    func withhold(_ id: ChatMessageID, since: Date?, on sql: any SQLDatabase) async throws
    /// The messages `sender` sent that are not deleted yet, with their rooms.
    func undeleted(from sender: UserID, on sql: any SQLDatabase) async throws -> [(id: ChatMessageID, room: RoomID)]
    /// Shows every message of `sender` under `name` from now on.
    func rename(sender: UserID, to name: String, on sql: any SQLDatabase) async throws
    /// Messages after `seq` that are not the viewer's, not deleted and not from players the viewer
    /// blocked, counted up to `cap`.
    func unread(in room: RoomID, after seq: Int, viewer: UserID, cap: Int, on sql: any SQLDatabase) async throws -> Int
}

struct SQLMessageStore: MessageStore {
    private static let columns = [
        "id", "room_id", "seq", "sender_id", "sender_name", "text", "client_message_id", "sent_at", "edited_at", "deleted_at",
        "hidden_at", "attachments",
    ]

    func insert(_ message: ChatMessage, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "messages").columns(Self.columns)
            .values(
                SQLBind(message.id.description), SQLBind(message.roomId.description), SQLBind(message.seq),
                SQLBind(message.senderId.description), SQLBind(message.senderName), SQLBind(message.text), SQLBind(message.clientMessageId),
                SQLBind(message.sentAt), SQLBind(message.editedAt), SQLBind(Date?.none), SQLBind(Date?.none),
                SQLBind(try message.attachments.map(StoredJSON.text))
            )
            .ignoringConflicts(with: ["room_id", "sender_id", "client_message_id"]).returning("id").all().isEmpty
    }

    /// Messages with their sender's picture (the people row their sender has, if any).
    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns(Self.columns.map { SQLColumn($0, table: "messages") } + [SQLColumn("picture", table: "people")])
            .from("messages").join(
                "people", method: SQLJoinMethod.left, on: SQLColumn("user_id", table: "people"), .equal,
                SQLColumn("sender_id", table: "messages"))
    }

    func message(_ id: ChatMessageID, on sql: any SQLDatabase) async throws -> ChatMessage? {
        try await select(on: sql).where("id", .equal, SQLBind(id.description)).first().map(Self.decode)
    }

    func message(in room: RoomID, from sender: UserID, clientMessageId: String, on sql: any SQLDatabase) async throws -> ChatMessage? {
        try await select(on: sql).where("room_id", .equal, SQLBind(room.description))
            .where("sender_id", .equal, SQLBind(sender.description)).where("client_message_id", .equal, SQLBind(clientMessageId))
            .first().map(Self.decode)
    }

    func messages(_ ids: [ChatMessageID], on sql: any SQLDatabase) async throws -> [ChatMessageID: ChatMessage] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await select(on: sql)
            .where(SQLColumn("id", table: "messages"), .in, SQLBind.group(ids.map(\.description))).all().map(Self.decode)
        return Dictionary(rows.map { ($0.id, $0) }) { first, _ in first }
    }

    func history(of room: RoomID, _ window: HistoryWindow, limit: Int, viewer: UserID, on sql: any SQLDatabase) async throws
        -> [ChatMessage]
    {
        var query = select(on: sql).where("room_id", .equal, SQLBind(room.description))
            .where(Self.notBlocked(by: viewer, sql: sql))
        switch window {
        case .before(let seq):
            if let seq { query = query.where("seq", .lessThan, SQLBind(seq)) }
            query = query.orderBy("seq", .descending)
        case .after(let seq):
            query = query.where("seq", .greaterThan, SQLBind(seq)).orderBy("seq", .ascending)
        }
        return try await query.limit(limit).all().map(Self.decode)
    }

    func edit(_ id: ChatMessageID, text: String, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("messages").set("text", to: SQLBind(text)).set("edited_at", to: SQLBind(now))
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func undeleted(from sender: UserID, on sql: any SQLDatabase) async throws -> [(id: ChatMessageID, room: RoomID)] {
        try await sql.select().columns("id", "room_id").from("messages").where("sender_id", .equal, SQLBind(sender.description))
            .where("deleted_at", .is, SQLLiteral.null).orderBy("room_id").orderBy("seq").all()
            .map { (try $0.typedID("id"), try $0.typedID("room_id")) }
    }

    func rename(sender: UserID, to name: String, on sql: any SQLDatabase) async throws {
        try await sql.update("messages").set("sender_name", to: SQLBind(name)).where("sender_id", .equal, SQLBind(sender.description)).run()
    }

    func withhold(_ id: ChatMessageID, since: Date?, on sql: any SQLDatabase) async throws {
        try await sql.update("messages").set("hidden_at", to: SQLBind(since)).where("id", .equal, SQLBind(id.description)).run()
    }

    func delete(_ id: ChatMessageID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("messages").set("text", to: SQLBind("")).set("attachments", to: SQLLiteral.null)
            .set("deleted_at", to: SQLBind(now))
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func unread(in room: RoomID, after seq: Int, viewer: UserID, cap: Int, on sql: any SQLDatabase) async throws -> Int {
        let counted = sql.select().column(SQLLiteral.numeric("1")).from("messages").where("room_id", .equal, SQLBind(room.description))
            .where("seq", .greaterThan, SQLBind(seq)).where("sender_id", .notEqual, SQLBind(viewer.description))
            .where("deleted_at", .is, SQLLiteral.null).where(Self.notBlocked(by: viewer, sql: sql)).limit(cap)
        return try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from(SQLAlias(SQLGroupExpression(counted.select), as: SQLIdentifier("unread"))).first()?.decode(column: "n", as: Int.self)
            ?? 0
    }

    /// Messages whose sender the viewer has not blocked.
    private static func notBlocked(by viewer: UserID, sql: any SQLDatabase) -> any SQLExpression {
        SQLBinaryExpression(
            SQLColumn("sender_id"), .notIn,
            SQLGroupExpression(
                sql.select().column("blocked_id").from("blocks").where("user_id", .equal, SQLBind(viewer.description)).select))
    }

    private static func decode(_ row: any SQLRow) throws -> ChatMessage {
        let deletedAt = try row.decode(column: "deleted_at", as: Date?.self)
        let hiddenAt = try row.decode(column: "hidden_at", as: Date?.self)
        let withheld = deletedAt == nil && hiddenAt != nil
        return ChatMessage(
            id: try row.typedID("id"), roomId: try row.typedID("room_id"), seq: try row.decode(column: "seq", as: Int.self),
            senderId: try row.typedID("sender_id"), senderName: ShownWords.shown(try row.decode(column: "sender_name", as: String.self)),
            text: withheld ? "" : try row.decode(column: "text", as: String.self),
            clientMessageId: try row.decode(column: "client_message_id", as: String.self),
            sentAt: try row.decode(column: "sent_at", as: Date.self), editedAt: try row.decode(column: "edited_at", as: Date?.self),
            deleted: deletedAt == nil ? nil : true, hidden: withheld ? true : nil,
            attachments: withheld ? nil : try row.json("attachments", as: [Media].self),
            senderPicture: try row.json("picture", as: PictureSizes.self))
    }
}
