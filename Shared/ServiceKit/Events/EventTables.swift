/// The tables behind the outbox and the inbox. A service adds them to its own migrations, so its
/// events live in its own store and commit in the same transactions as its changes.
extension Migration {
    /// `outbox`: events in commit order; `outbox_positions`: how far each subscriber has received.
    public static func outbox(version: Int) -> Migration {
        Migration(version: version, name: "outbox") { kind in
            [
                """
                CREATE TABLE outbox (
                    seq \(kind.autoIncrementPrimaryKey), event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
                    aggregate_id TEXT NOT NULL, occurred_at \(kind.timestamp) NOT NULL, payload TEXT NOT NULL)
                """,
                "CREATE TABLE outbox_positions (subscriber TEXT PRIMARY KEY, delivered_seq BIGINT NOT NULL)",
            ]
        }
    }

    /// The trace context each event keeps (`EventTracing`).
    public static func outboxTraceContext(version: Int) -> Migration {
        Migration(version: version, name: "events keep their trace context") { _ in
            ["ALTER TABLE outbox ADD COLUMN traceparent TEXT", "ALTER TABLE outbox ADD COLUMN tracestate TEXT"]
        }
    }

    /// `inbox`: ids of the events this service has already applied.
    public static func inbox(version: Int) -> Migration {
        Migration(version: version, name: "inbox") { kind in
            ["CREATE TABLE inbox (event_id TEXT PRIMARY KEY, type TEXT NOT NULL, applied_at \(kind.timestamp) NOT NULL)"]
        }
    }
}
