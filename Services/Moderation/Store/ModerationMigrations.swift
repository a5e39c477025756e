import ServiceStore

enum ModerationMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "moderators, cases, reports and the audit trail") { kind in
            [
                "CREATE TABLE moderators (user_id TEXT PRIMARY KEY, granted_by TEXT, granted_at \(kind.timestamp) NOT NULL)",
                // A case gathers the reports of one subject while it is open; `content` and `context` are
                // the subject as first reported (JSON), so an edit or a delete cannot hide it.
                """
                CREATE TABLE cases (
                    id TEXT PRIMARY KEY, subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, owner_id TEXT, status TEXT NOT NULL,
                    opened_at \(kind.timestamp) NOT NULL, closed_at \(kind.timestamp), content TEXT NOT NULL, context TEXT,
                    hidden \(kind.boolean) NOT NULL)
                """,
                // One open case per subject, whichever instance takes the report.
                "CREATE UNIQUE INDEX cases_open_subject ON cases (subject_type, subject_id) WHERE status = 'open'",
                "CREATE INDEX cases_by_status ON cases (status, opened_at, id)",
                // One report per reporter and subject, ever: a repeat answers the first.
                """
                CREATE TABLE reports (
                    id TEXT PRIMARY KEY, case_id TEXT NOT NULL REFERENCES cases (id), reporter_id TEXT NOT NULL,
                    subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, reason TEXT NOT NULL, note TEXT, status TEXT NOT NULL,
                    created_at \(kind.timestamp) NOT NULL, decided_at \(kind.timestamp), UNIQUE (reporter_id, subject_type, subject_id))
                """,
                "CREATE INDEX reports_by_reporter ON reports (reporter_id, created_at, id)",
                "CREATE INDEX reports_by_case ON reports (case_id)",
                """
                CREATE TABLE case_actions (
                    seq \(kind.autoIncrementPrimaryKey), case_id TEXT NOT NULL REFERENCES cases (id), owner_id TEXT, action TEXT NOT NULL,
                    reason TEXT NOT NULL, until \(kind.timestamp), moderator_id TEXT NOT NULL, at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX case_actions_by_case ON case_actions (case_id, seq)",
                "CREATE INDEX case_actions_by_owner ON case_actions (owner_id, seq)",
            ]
        },
        .outbox(version: 2),
        // Auth's account deletions, applied once each.
        .inbox(version: 3),
        Migration(version: 4, name: "the console's sessions") { kind in
            [
                """
                CREATE TABLE console_sessions (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, csrf TEXT NOT NULL, access_token TEXT NOT NULL,
                    refresh_token TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL, expires_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX console_sessions_by_user ON console_sessions (user_id)",
            ]
        },
        .outboxTraceContext(version: 5),
        .outboxInTransactionOrder(version: 6),
        .outboxDelivery(version: 7),
    ]
}
