import Contracts
import SQLKit
import ServiceFeatures

/// What search holds of a player, for their export: the name other players find them by.
enum SearchPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection("listing", columns: [.text("user_id"), .text("name")]) { user in
            "SELECT id AS user_id, name FROM players WHERE id = \(bind: user.description)"
        }
    ])
}
