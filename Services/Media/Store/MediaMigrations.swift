import ServiceStore

enum MediaMigrations {
    static let all: [Migration] = [
        // Each upload with what was made of it. `variants` is JSON ([StoredVariant]); `lease_until`
        // is when an instance that claimed it for processing is presumed dead.
        Migration(version: 1, name: "uploads") { kind in
            [
                """
                CREATE TABLE uploads (
                    id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, purpose TEXT NOT NULL, content_type TEXT NOT NULL,
                    byte_size BIGINT NOT NULL, status TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL,
                    expires_at \(kind.timestamp) NOT NULL, lease_until \(kind.timestamp), completed_at \(kind.timestamp),
                    width INTEGER, height INTEGER, variants TEXT, attached_to TEXT)
                """,
                "CREATE INDEX uploads_by_owner ON uploads (owner_id, created_at)",
                "CREATE INDEX uploads_by_status ON uploads (status, expires_at)",
            ]
        },
        // Auth's account deletions, each applied once.
        .inbox(version: 2),
    ]
}
