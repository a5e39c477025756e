import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Users' inboxes.
protocol NotificationStore: Sendable {
    /// Keeps each notification in its recipient's inbox.
    func insert(_ notifications: [(InboxNotification, UserID)], on sql: any SQLDatabase) async throws
    /// Newest first.
    func page(of user: UserID, _ page: PageRequest, on sql: any SQLDatabase) async throws -> Page<InboxNotification>
    func unreadCount(of user: UserID, on sql: any SQLDatabase) async throws -> Int
    /// The unread counts of several players at once (a player with none is left out), for a batch's badges.
    func unreadCounts(of users: Set<UserID>, on sql: any SQLDatabase) async throws -> [UserID: Int]
    /// Marks it read (once: a second call keeps the first time); false when it is not `user`'s.
    func markRead(_ id: NotificationID, of user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> Bool
    func markAllRead(of user: UserID, at now: Date, on sql: any SQLDatabase) async throws
}

struct SQLNotificationStore: NotificationStore {
    private static let columns = ["id", "category", "title", "body", "data", "created_at", "read_at"]

    func insert(_ notifications: [(InboxNotification, UserID)], on sql: any SQLDatabase) async throws {
        for slice in notifications.statementSlices() {
            let rows = try slice.map { notification, user -> [any SQLExpression] in
                let data = try StoredJSON.text(notification.data)
                return [
                    SQLBind(user.description), SQLBind(notification.id.description), SQLBind(notification.category.rawValue),
                    SQLBind(notification.title), SQLBind(notification.body), SQLBind(data), SQLBind(notification.createdAt),
                    SQLBind(notification.readAt),
                ]
            }
            try await sql.insert(into: "notifications").columns(["user_id"] + Self.columns).rows(rows).run()
        }
    }

    func page(of user: UserID, _ page: PageRequest, on sql: any SQLDatabase) async throws -> Page<InboxNotification> {
        var query = sql.select().columns(Self.columns).from("notifications").where("user_id", .equal, SQLBind(user.description))
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("created_at"), id: SQLColumn("id"), descending: true))
        }
        let rows = try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(page.limit + 1).all()
            .map(Self.decode)
        return page.page(rows) { TimeCursor(time: $0.createdAt, id: $0.id).encoded }
    }

    func unreadCount(of user: UserID, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("notifications")
            .where("user_id", .equal, SQLBind(user.description)).where("read_at", .is, SQLLiteral.null).first()?
            .decode(column: "n", as: Int.self) ?? 0
    }

    func unreadCounts(of users: Set<UserID>, on sql: any SQLDatabase) async throws -> [UserID: Int] {
        guard !users.isEmpty else { return [:] }
        let rows = try await sql.select().column("user_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("notifications").where(SQLInList("user_id", users.map(\.description))).where("read_at", .is, SQLLiteral.null)
            .groupBy("user_id").all()
        return Dictionary(uniqueKeysWithValues: try rows.map { (try $0.typedID("user_id"), try $0.decode(column: "n", as: Int.self)) })
    }

    func markRead(_ id: NotificationID, of user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> Bool {
        let mine = try await sql.select().column("read_at").from("notifications").where("id", .equal, SQLBind(id.description))
            .where("user_id", .equal, SQLBind(user.description)).first()
        guard mine != nil else { return false }
        try await sql.update("notifications").set("read_at", to: SQLBind(now)).where("id", .equal, SQLBind(id.description))
            .where("read_at", .is, SQLLiteral.null).run()
        return true
    }

    func markAllRead(of user: UserID, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("notifications").set("read_at", to: SQLBind(now)).where("user_id", .equal, SQLBind(user.description))
            .where("read_at", .is, SQLLiteral.null).run()
    }

    private static func decode(_ row: any SQLRow) throws -> InboxNotification {
        InboxNotification(
            id: try row.typedID("id"), category: try row.enumValue("category"), title: try row.decode(column: "title", as: String.self),
            body: try row.decode(column: "body", as: String.self),
            data: try row.requiredJSON("data", as: NotificationData.self),
            createdAt: try row.decode(column: "created_at", as: Date.self), readAt: try row.decode(column: "read_at", as: Date?.self))
    }
}
