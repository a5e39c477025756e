import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Each player's pace of pushes per room (`ChatPushPacing.Window`).
protocol ChatPushWindowStore: Sendable {
    /// The windows of `users` in `room`, locked until the transaction ends (two messages of one room
    /// taken at once must not both push at once).
    func windows(of users: [UserID], in room: RoomID, on sql: any SQLDatabase) async throws -> [UserID: ChatPushPacing.Window]
    func save(_ windows: [UserID: ChatPushPacing.Window], in room: RoomID, on sql: any SQLDatabase) async throws
}

struct SQLChatPushWindowStore: ChatPushWindowStore {
    let kind: Database.Kind

    func windows(of users: [UserID], in room: RoomID, on sql: any SQLDatabase) async throws -> [UserID: ChatPushPacing.Window] {
        var found: [UserID: ChatPushPacing.Window] = [:]
        for slice in users.statementSlices() {
            var query = sql.select().columns("user_id", "next_at", "pending_id", "pending_due", "folded").from("chat_push_windows")
                .where("room_id", .equal, SQLBind(room.description)).where("user_id", .in, SQLBind.group(slice.map(\.description)))
            if kind == .postgres { query = query.lockingClause(SQLLockingClause.update) }
            for row in try await query.all() {
                found[try row.typedID("user_id")] = ChatPushPacing.Window(
                    nextAt: try row.decode(column: "next_at", as: Date.self),
                    pending: try row.decode(column: "pending_id", as: String?.self).flatMap(NotificationID.init),
                    pendingDue: try row.decode(column: "pending_due", as: Date?.self),
                    folded: try row.decode(column: "folded", as: Int.self))
            }
        }
        return found
    }

    func save(_ windows: [UserID: ChatPushPacing.Window], in room: RoomID, on sql: any SQLDatabase) async throws {
        let rows = windows.sorted { $0.key.description < $1.key.description }
        for slice in rows.statementSlices() {
            try await sql.insert(into: "chat_push_windows").columns("user_id", "room_id", "next_at", "pending_id", "pending_due", "folded")
                .rows(
                    slice.map { user, window in
                        [
                            SQLBind(user.description), SQLBind(room.description), SQLBind(window.nextAt),
                            SQLBind(window.pending?.description), SQLBind(window.pendingDue), SQLBind(window.folded),
                        ]
                    }
                )
                .onConflict(with: ["user_id", "room_id"]) {
                    $0.set(excludedValueOf: "next_at").set(excludedValueOf: "pending_id").set(excludedValueOf: "pending_due")
                        .set(excludedValueOf: "folded")
                }
                .run()
        }
    }
}
