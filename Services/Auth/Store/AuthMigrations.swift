import ServiceFeatures
import ServiceStore

/// Auth's schema. Ids are lowercase UUID text; emails are stored lower-cased.
enum AuthMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "users, sessions, refresh tokens, follows, keys") { kind in
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, picture_url TEXT,
                    sports TEXT NOT NULL DEFAULT '', password_hash TEXT, facebook_id TEXT UNIQUE,
                    roles TEXT NOT NULL DEFAULT '', created_at \(kind.timestamp) NOT NULL)
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), created_at \(kind.timestamp) NOT NULL,
                    expires_at \(kind.timestamp) NOT NULL, revoked_at \(kind.timestamp))
                """,
                "CREATE INDEX sessions_user ON sessions(user_id)",
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),
                    created_at \(kind.timestamp) NOT NULL, rotated_at \(kind.timestamp))
                """,
                "CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id)",
                """
                CREATE TABLE session_revocations (
                    seq \(kind.autoIncrementPrimaryKey), session_id TEXT NOT NULL, revoked_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE TABLE login_failures (email TEXT NOT NULL, failed_at \(kind.timestamp) NOT NULL)",
                "CREATE INDEX login_failures_email ON login_failures(email, failed_at)",
                """
                CREATE TABLE follows (
                    seq \(kind.autoIncrementPrimaryKey), follower_id TEXT NOT NULL REFERENCES users(id),
                    followee_id TEXT NOT NULL REFERENCES users(id), created_at \(kind.timestamp) NOT NULL,
                    UNIQUE (follower_id, followee_id))
                """,
                "CREATE INDEX follows_followee ON follows(followee_id)",
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY, private_key TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL)
                """,
            ]
        },
        .outbox(version: 2),
        // Sign-in failures count per client address too (`LoginThrottle`).
        Migration(version: 3, name: "sign-in failures by client address") { _ in
            ["ALTER TABLE login_failures ADD COLUMN client TEXT NOT NULL DEFAULT ''"]
        },
        // Sign in with Apple: a member's Apple user id, one member each.
        Migration(version: 4, name: "Apple user ids") { _ in
            ["ALTER TABLE users ADD COLUMN apple_id TEXT", "CREATE UNIQUE INDEX users_apple_id ON users (apple_id)"]
        },
        // Apple's refresh token per member, sealed, for deletion to revoke.
        Migration(version: 5, name: "Apple refresh tokens") { _ in ["ALTER TABLE users ADD COLUMN apple_refresh_token TEXT"] },
        // Deleted members' Apple refresh tokens, until Apple has taken their revocation.
        Migration(version: 6, name: "Apple revocations to make") { kind in
            [
                "CREATE TABLE apple_revocations (user_id TEXT PRIMARY KEY, sealed_token TEXT NOT NULL, queued_at \(kind.timestamp) NOT NULL)"
            ]
        },
        // Whether Apple forwards mail to a member's private relay address, from its notifications.
        Migration(version: 7, name: "Apple mail forwarding") { kind in
            ["ALTER TABLE users ADD COLUMN apple_email_forwarding \(kind.boolean)"]
        },
        // Each deleted account's deletion event, so operators can follow every service's erasure; and
        // players' data exports, gathered by a worker from a pending row, kept until they expire.
        Migration(version: 8, name: "deletions and data exports") { kind in
            [
                "CREATE TABLE deletions (user_id TEXT PRIMARY KEY, event_id TEXT NOT NULL, deleted_at \(kind.timestamp) NOT NULL)",
                """
                CREATE TABLE data_exports (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, status TEXT NOT NULL, requested_at \(kind.timestamp) NOT NULL,
                    ready_at \(kind.timestamp), expires_at \(kind.timestamp), claimed_until \(kind.timestamp), document TEXT)
                """,
                "CREATE INDEX data_exports_by_user ON data_exports (user_id, requested_at)",
                "CREATE INDEX data_exports_by_status ON data_exports (status, requested_at)",
            ]
        },
        // Moderators' suspensions and bans (no end), from moderation's decisions, applied once each.
        Migration(version: 9, name: "suspensions") { kind in
            [
                """
                CREATE TABLE suspensions (
                    user_id TEXT PRIMARY KEY, until \(kind.timestamp), reason TEXT NOT NULL, case_id TEXT NOT NULL, at \(kind.timestamp) NOT NULL)
                """
            ]
        },
        .inbox(version: 10),
        .outboxTraceContext(version: 11),
        .outboxInTransactionOrder(version: 12),
        // Requests at once from two devices each made an export (seven of sixteen on PostgreSQL), and
        // each export asks every module for the player's data. Duplicates still pending are dropped:
        // the earliest of each player's answers for all of them.
        Migration(version: 13, name: "one pending export a player") { _ in
            [
                """
                DELETE FROM data_exports WHERE status = 'pending'
                    AND id NOT IN (SELECT MIN(id) FROM data_exports WHERE status = 'pending' GROUP BY user_id)
                """,
                "CREATE UNIQUE INDEX data_exports_one_pending ON data_exports (user_id) WHERE status = 'pending'",
            ]
        },
        .outboxDelivery(version: 14),
        // Mail waiting to leave (which instance sends it is a lease in `feed_leases`, made with the outbox's delivery).
        .mailQueue(version: 15),
        // Single-use tokens mailed to players (only their SHA-256), and the requests that mailed them.
        Migration(version: 16, name: "account tokens") { kind in
            [
                """
                CREATE TABLE account_tokens (
                    hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, purpose TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL,
                    expires_at \(kind.timestamp) NOT NULL, used_at \(kind.timestamp))
                """,
                "CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose)",
                "CREATE TABLE mail_requests (email TEXT NOT NULL, client TEXT NOT NULL, requested_at \(kind.timestamp) NOT NULL)",
                "CREATE INDEX mail_requests_by_email ON mail_requests (email, requested_at)",
                "CREATE INDEX mail_requests_by_client ON mail_requests (client, requested_at)",
            ]
        },
        // Sessions slide: each refresh records when, and from what device, it was last used.
        Migration(version: 17, name: "sessions last used") { kind in
            ["ALTER TABLE sessions ADD COLUMN last_used_at \(kind.timestamp)", "ALTER TABLE sessions ADD COLUMN user_agent TEXT"]
        },
        // Addresses proven by a mailed token (or a provider), and the new address an address change waits to prove.
        Migration(version: 18, name: "verified addresses") { kind in
            ["ALTER TABLE users ADD COLUMN email_verified_at \(kind.timestamp)", "ALTER TABLE account_tokens ADD COLUMN new_email TEXT"]
        },
        // Sign in with Google: Google's user id, one account each.
        Migration(version: 19, name: "Google user ids") { _ in
            ["ALTER TABLE users ADD COLUMN google_id TEXT", "CREATE UNIQUE INDEX users_google_id ON users (google_id)"]
        },
        // A second factor (TOTP) with its recovery codes, and whether a session was signed in with it.
        Migration(version: 20, name: "second factors") { kind in
            [
                """
                CREATE TABLE second_factors (
                    user_id TEXT PRIMARY KEY, secret TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL,
                    confirmed_at \(kind.timestamp), last_step BIGINT NOT NULL)
                """,
                "CREATE TABLE recovery_codes (user_id TEXT NOT NULL, hash TEXT NOT NULL, used_at \(kind.timestamp), PRIMARY KEY (user_id, hash))",
                "ALTER TABLE sessions ADD COLUMN second_factor BOOLEAN NOT NULL DEFAULT FALSE",
            ]
        },
        // Resets and address changes decided after the answer, so the answer takes the same work whoever asks.
        Migration(version: 21, name: "pending account mails") { kind in
            [
                """
                CREATE TABLE pending_account_mails (
                    seq \(kind.autoIncrementPrimaryKey), purpose TEXT NOT NULL, email TEXT NOT NULL, user_id TEXT)
                """
            ]
        },
        // The picture uploaded to media (`AttachedPicture` as JSON): the upload and its sizes' URLs.
        Migration(version: 22, name: "uploaded pictures") { _ in ["ALTER TABLE users ADD COLUMN picture TEXT"] },
        // The language the member is written to in (BCP 47).
        Migration(version: 23, name: "locale") { _ in ["ALTER TABLE users ADD COLUMN locale TEXT"] },
    ]
}
