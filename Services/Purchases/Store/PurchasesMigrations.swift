import ServiceStore

enum PurchasesMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "account tokens, transactions and notifications") { kind in
            [
                // The UUID each player's app passes to StoreKit, so a transaction names its player.
                "CREATE TABLE account_tokens (user_id TEXT PRIMARY KEY, token TEXT NOT NULL UNIQUE)",
                // Every transaction credited, by the account that claimed it: an original transaction id
                // (a subscription's renewals share it) belongs to one account for good, even after the
                // account is deleted (its user id then a pseudonym).
                """
                CREATE TABLE transactions (
                    transaction_id TEXT PRIMARY KEY, original_transaction_id TEXT NOT NULL, user_id TEXT NOT NULL,
                    platform TEXT NOT NULL, product_id TEXT NOT NULL, environment TEXT NOT NULL,
                    purchased_at \(kind.timestamp) NOT NULL, expires_at \(kind.timestamp), revoked BOOLEAN NOT NULL,
                    recorded_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX transactions_by_original ON transactions (original_transaction_id)",
                "CREATE INDEX transactions_by_user ON transactions (user_id)",
                // Each App Store notification once, whatever its type: a type this build does not act on
                // is kept, to be replayed by a later one.
                """
                CREATE TABLE notifications (
                    notification_uuid TEXT PRIMARY KEY, type TEXT NOT NULL, subtype TEXT, effect TEXT NOT NULL,
                    transaction_id TEXT, received_at \(kind.timestamp) NOT NULL, payload TEXT NOT NULL)
                """,
            ]
        },
        .idempotency(version: 2),
        // Who holds each original transaction id, one row each, so two accounts claiming it at once on
        // two instances queue on its key and the second is told it is taken.
        Migration(version: 3, name: "claims of original transactions") { _ in
            [
                "CREATE TABLE claims (original_transaction_id TEXT PRIMARY KEY, user_id TEXT NOT NULL)",
                """
                INSERT INTO claims (original_transaction_id, user_id)
                SELECT original_transaction_id, MIN(user_id) FROM transactions GROUP BY original_transaction_id
                """,
            ]
        },
        .outbox(version: 4),
        // Each player's entitlement version: bumped in every transaction that changes what they hold,
        // which also makes two such transactions of one player take turns (`EntitlementsPublisher`).
        Migration(version: 5, name: "entitlement versions") { _ in
            ["CREATE TABLE entitlement_versions (user_id TEXT PRIMARY KEY, version BIGINT NOT NULL)"]
        },
        // Auth's account deletions, applied once each.
        .inbox(version: 6),
        .outboxTraceContext(version: 7),
        .outboxInTransactionOrder(version: 8),
        .outboxDelivery(version: 9),
    ]
}
