import Contracts
import SQLKit
import ServiceFeatures

/// What notify holds of a player, for their export: their devices, their inbox, the categories they
/// turned off or on, and their game reminders.
enum NotifyPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "devices", columns: [.text("token"), .text("platform"), .text("environment"), .text("topic"), .time("registered_at")]
        ) { user in
            """
            SELECT token, platform, environment, topic, registered_at FROM devices WHERE user_id = \(bind: user.description)
            ORDER BY registered_at
            """
        },
        PersonalDataSection(
            "notifications",
            columns: [
                .text("notification_id"), .text("category"), .text("title"), .text("body"), .json("data"), .time("created_at"),
                .time("read_at"),
            ]
        ) { user in
            """
            SELECT id AS notification_id, category, title, body, data, created_at, read_at FROM notifications
            WHERE user_id = \(bind: user.description) ORDER BY created_at, id
            """
        },
        PersonalDataSection("preferences", columns: [.text("category"), .boolean("pushed")]) { user in
            "SELECT category, pushed FROM preferences WHERE user_id = \(bind: user.description) ORDER BY category"
        },
        PersonalDataSection(
            "reminders", columns: [.text("game_id"), .text("game_name"), .text("kind"), .time("due_at"), .text("state"), .time("sent_at")]
        ) { user in
            """
            SELECT r.game_id, g.name AS game_name, r.kind, r.due_at, r.state, r.sent_at FROM reminders r
            LEFT JOIN games g ON g.game_id = r.game_id WHERE r.user_id = \(bind: user.description) ORDER BY r.due_at
            """
        },
    ])
}
