import Contracts
import SQLKit
import ServiceFeatures

/// What chat holds of a player, for their export: every message they wrote (with its room), the
/// rooms they belong to, the rooms they muted, and whom they blocked.
enum ChatPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "messages",
            columns: [
                .text("message_id"), .text("room_id"), .text("room_kind"), .text("room_name"), .integer("seq"), .text("text"),
                .time("sent_at"), .time("edited_at"), .time("deleted_at"),
            ]
        ) { user in
            """
            SELECT m.id AS message_id, m.room_id, r.kind AS room_kind, r.name AS room_name, m.seq, m.text, m.sent_at, m.edited_at,
            m.deleted_at FROM messages m JOIN rooms r ON r.id = m.room_id WHERE m.sender_id = \(bind: user.description)
            ORDER BY m.sent_at, m.id
            """
        },
        PersonalDataSection("rooms", columns: [.text("room_id"), .text("kind"), .text("name")]) { user in
            """
            SELECT r.id AS room_id, r.kind, r.name FROM room_members rm JOIN rooms r ON r.id = rm.room_id
            WHERE rm.user_id = \(bind: user.description) ORDER BY r.id
            """
        },
        PersonalDataSection("muted", columns: [.text("room_id"), .time("muted_until")]) { user in
            "SELECT room_id, muted_until FROM room_mutes WHERE user_id = \(bind: user.description) ORDER BY room_id"
        },
        PersonalDataSection("blocked", columns: [.text("user_id"), .time("blocked_at")]) { user in
            "SELECT blocked_id AS user_id, blocked_at FROM blocks WHERE user_id = \(bind: user.description) ORDER BY blocked_at"
        },
    ])
}
