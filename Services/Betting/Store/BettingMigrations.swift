import ServiceStore

/// Betting's schema. Money columns are integer minor units and odds integer thousandths: nothing
/// here is a float.
enum BettingMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "ledger") { kind in
            [
                // A wallet may never go below zero; the house and the grants account may.
                """
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, user_id TEXT, currency TEXT NOT NULL,
                    debits BIGINT NOT NULL DEFAULT 0, credits BIGINT NOT NULL DEFAULT 0, created_at \(kind.timestamp) NOT NULL,
                    CHECK (kind <> 'wallet' OR debits <= credits))
                """,
                """
                CREATE TABLE transfers (
                    id TEXT PRIMARY KEY, debit_account TEXT NOT NULL REFERENCES accounts (id),
                    credit_account TEXT NOT NULL REFERENCES accounts (id), amount BIGINT NOT NULL CHECK (amount > 0),
                    kind TEXT NOT NULL, ticket_id TEXT, created_at \(kind.timestamp) NOT NULL,
                    CHECK (debit_account <> credit_account))
                """,
                "CREATE INDEX transfers_by_debit ON transfers (debit_account, created_at, id)",
                "CREATE INDEX transfers_by_credit ON transfers (credit_account, created_at, id)",
            ]
        },
        Migration(version: 2, name: "fixtures and odds") { kind in
            [
                """
                CREATE TABLE fixtures (
                    id TEXT PRIMARY KEY, provider_fixture_id BIGINT NOT NULL, kickoff \(kind.timestamp) NOT NULL,
                    status TEXT NOT NULL, match_version INTEGER NOT NULL, regular_home INTEGER, regular_away INTEGER,
                    void_at \(kind.timestamp), odds_home BIGINT, odds_draw BIGINT, odds_away BIGINT,
                    odds_version INTEGER NOT NULL DEFAULT 0, body TEXT NOT NULL)
                """,
                "CREATE INDEX fixtures_by_kickoff ON fixtures (kickoff, id)",
                // Every price a fixture had, by version.
                """
                CREATE TABLE odds_changes (
                    fixture_id TEXT NOT NULL, version INTEGER NOT NULL, home BIGINT NOT NULL, draw BIGINT NOT NULL,
                    away BIGINT NOT NULL, changed_at \(kind.timestamp) NOT NULL, PRIMARY KEY (fixture_id, version))
                """,
            ]
        },
        Migration(version: 3, name: "slips and tickets") { kind in
            [
                "CREATE TABLE slips (user_id TEXT PRIMARY KEY, stake BIGINT, updated_at \(kind.timestamp) NOT NULL)",
                """
                CREATE TABLE slip_selections (
                    user_id TEXT NOT NULL, fixture_id TEXT NOT NULL, pick TEXT NOT NULL, added_at \(kind.timestamp) NOT NULL,
                    PRIMARY KEY (user_id, fixture_id))
                """,
                // The idempotency key lives with the ticket: they commit together with the debit.
                """
                CREATE TABLE tickets (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
                    status TEXT NOT NULL, stake BIGINT NOT NULL, currency TEXT NOT NULL, total_odds BIGINT NOT NULL,
                    potential_winnings BIGINT NOT NULL, payout BIGINT, placed_at \(kind.timestamp) NOT NULL,
                    settled_at \(kind.timestamp), UNIQUE (user_id, idempotency_key))
                """,
                "CREATE INDEX tickets_by_user ON tickets (user_id, placed_at, id)",
                """
                CREATE TABLE ticket_legs (
                    ticket_id TEXT NOT NULL REFERENCES tickets (id), position INTEGER NOT NULL, fixture_id TEXT NOT NULL,
                    pick TEXT NOT NULL, odds BIGINT NOT NULL, result TEXT NOT NULL, home TEXT NOT NULL, away TEXT NOT NULL,
                    PRIMARY KEY (ticket_id, position))
                """,
                "CREATE INDEX ticket_legs_open ON ticket_legs (fixture_id, result)",
            ]
        },
        .inbox(version: 4),
        .feedLeases(version: 5),
        .outbox(version: 6),
        .outboxTraceContext(version: 7),
        .outboxInTransactionOrder(version: 8),
        .outboxDelivery(version: 9),
    ]
}
