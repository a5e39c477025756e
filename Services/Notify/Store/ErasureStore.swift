import Contracts
import Foundation
import SQLKit

/// What notify holds of a deleted account: its devices and the pushes queued or given up for it, its
/// inbox, preferences, reminders and name; its name in other people's notifications and their pushes;
/// and the pushes of its messages to others (a chat push names its sender in its data).
protocol ErasureStore: Sendable {
    /// Erases `user`; notifications of others that name them (by `name`, with their id in the data) read `formerName`.
    func erase(_ user: UserID, name: String?, formerName: String, on sql: any SQLDatabase) async throws
}

struct SQLErasureStore: ErasureStore {
    let pushes: any PushJobStore

    func erase(_ user: UserID, name: String?, formerName: String, on sql: any SQLDatabase) async throws {
        let id = SQLBind(user.description)
        try await sql.raw(
            """
            DELETE FROM push_jobs WHERE user_id = \(bind: user.description)
            OR token IN (SELECT token FROM devices WHERE user_id = \(bind: user.description))
            """
        ).run()
        try await pushes.withdraw(user, on: sql)
        let sentBy = "%\(user.description)%"
        let chat = [NotificationCategory.chatMessage, .mention].map(\.rawValue)
        try await sql.raw(
            "DELETE FROM push_jobs WHERE category IN (\(binds: chat)) AND data LIKE \(bind: sentBy)"
        ).run()
        try await sql.raw("DELETE FROM chat_push_batches WHERE data LIKE \(bind: sentBy)").run()
        for table in ["devices", "notifications", "preferences", "reminders", "people"] {
            try await sql.delete(from: table).where("user_id", .equal, id).run()
        }
        guard let name, !name.isEmpty else { return }
        for table in ["notifications", "push_jobs"] {
            try await sql.raw(
                """
                UPDATE \(ident: table) SET title = REPLACE(title, \(bind: name), \(bind: formerName)),
                body = REPLACE(body, \(bind: name), \(bind: formerName)) WHERE data LIKE \(bind: sentBy)
                """
            ).run()
        }
    }
}
