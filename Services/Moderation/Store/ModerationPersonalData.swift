import Contracts
import SQLKit
import ServiceFeatures

/// What moderation holds of a player, for their export: the reports they made and their outcomes.
/// (What others reported about them, and moderators' notes, are kept for the audit trail.)
enum ModerationPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "reports",
            columns: [
                .text("report_id"), .text("subject_type"), .text("subject_id"), .text("reason"), .text("note"), .text("status"),
                .time("created_at"), .time("decided_at"),
            ]
        ) { user in
            """
            SELECT id AS report_id, subject_type, subject_id, reason, note, status, created_at, decided_at FROM reports
            WHERE reporter_id = \(bind: user.description) ORDER BY created_at, id
            """
        }
    ])
}
