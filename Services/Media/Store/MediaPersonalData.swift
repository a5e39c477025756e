import Contracts
import SQLKit
import ServiceFeatures

/// What media holds of a player, for their export: their uploads, and the sizes made of them.
enum MediaPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "uploads",
            columns: [
                .text("media_id"), .text("purpose"), .text("content_type"), .text("status"), .time("created_at"), .time("completed_at"),
                .integer("width"), .integer("height"), .text("variants"), .text("attached_to"),
            ]
        ) { user in
            """
            SELECT id AS media_id, purpose, content_type, status, created_at, completed_at, width, height, variants, attached_to FROM uploads
            WHERE owner_id = \(bind: user.description) ORDER BY created_at, id
            """
        }
    ])
}
