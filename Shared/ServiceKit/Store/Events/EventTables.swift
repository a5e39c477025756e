/// The tables behind the outbox and the inbox. A service adds them to its own migrations, so its
/// events live in its own store and commit in the same transactions as its changes.
extension Migration {
    /// `outbox`: events in the order they were written; `outbox_positions`: how far each subscriber has
    /// received (`outbox_cursors` since `outboxDelivery`).
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

    /// Each event's transaction (`tx`), by which the dispatcher orders and holds back events: on
    /// PostgreSQL the id of the transaction that wrote it, on SQLite (one writer at a time) 0, so
    /// the order is `seq`'s. A subscriber's position becomes the pair (`delivered_tx`, `delivered_seq`).
    /// Events and positions written before keep 0, which sorts before every transaction id.
    public static func outboxInTransactionOrder(version: Int) -> Migration {
        Migration(version: version, name: "events in transaction order") { kind in
            var statements = [
                "ALTER TABLE outbox ADD COLUMN tx BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE outbox_positions ADD COLUMN delivered_tx BIGINT NOT NULL DEFAULT 0",
                "CREATE INDEX outbox_order ON outbox (tx, seq)",
            ]
            if kind == .postgres {
                // xid8 has no cast to bigint but through text; 2^63 transactions are not a concern.
                statements.append("ALTER TABLE outbox ALTER COLUMN tx SET DEFAULT (pg_current_xact_id()::text::bigint)")
            }
            return statements
        }
    }

    /// Delivery that holds with several instances (`OutboxDispatcher`): each event's partition key
    /// (`part_key`, from its aggregate id, so one aggregate's events share a partition);
    /// `outbox_cursors`, how far each subscriber has received in each partition of the count it was
    /// written for (the positions so far become partition 0 of 1); `outbox_dead_letters`, events a
    /// subscriber refused too often, kept whole with the error; and `feed_leases`, which instance
    /// sends which partition, for the publishers that had no pollers.
    public static func outboxDelivery(version: Int) -> Migration {
        Migration(version: version, name: "outbox partitions, cursors and dead letters") { kind in
            [
                "ALTER TABLE outbox ADD COLUMN part_key BIGINT NOT NULL DEFAULT 0",
                """
                CREATE TABLE outbox_cursors (
                    subscriber TEXT NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL,
                    delivered_tx BIGINT NOT NULL, delivered_seq BIGINT NOT NULL, PRIMARY KEY (subscriber, part))
                """,
                """
                INSERT INTO outbox_cursors (subscriber, part, parts, delivered_tx, delivered_seq)
                SELECT subscriber, 0, 1, delivered_tx, delivered_seq FROM outbox_positions
                """,
                "DROP TABLE outbox_positions",
                """
                CREATE TABLE outbox_dead_letters (
                    event_id TEXT NOT NULL, subscriber TEXT NOT NULL, type TEXT NOT NULL, aggregate_id TEXT NOT NULL,
                    occurred_at \(kind.timestamp) NOT NULL, payload TEXT NOT NULL, traceparent TEXT, tracestate TEXT,
                    error TEXT NOT NULL, attempts INTEGER NOT NULL, parked_at \(kind.timestamp) NOT NULL,
                    PRIMARY KEY (event_id, subscriber))
                """,
                "CREATE INDEX outbox_dead_letters_parked ON outbox_dead_letters (parked_at)",
                "CREATE TABLE IF NOT EXISTS feed_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at \(kind.timestamp) NOT NULL)",
            ]
        }
    }

    /// `inbox`: ids of the events this service has already applied.
    public static func inbox(version: Int) -> Migration {
        Migration(version: version, name: "inbox") { kind in
            ["CREATE TABLE inbox (event_id TEXT PRIMARY KEY, type TEXT NOT NULL, applied_at \(kind.timestamp) NOT NULL)"]
        }
    }
}
