import Contracts
import SQLKit
import ServiceFeatures

/// What purchases holds of a player, for their export: the transactions credited to them and the
/// app account token their purchases carry.
enum PurchasesPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "transactions",
            columns: [
                .text("transaction_id"), .text("original_transaction_id"), .text("platform"), .text("product_id"), .text("environment"),
                .time("purchased_at"), .time("expires_at"), .boolean("revoked"), .time("recorded_at"),
            ]
        ) { user in
            """
            SELECT transaction_id, original_transaction_id, platform, product_id, environment, purchased_at, expires_at, revoked,
            recorded_at FROM transactions WHERE user_id = \(bind: user.description) ORDER BY purchased_at, transaction_id
            """
        },
        PersonalDataSection("appAccountToken", columns: [.text("token")]) { user in
            "SELECT token FROM account_tokens WHERE user_id = \(bind: user.description)"
        },
    ])
}
