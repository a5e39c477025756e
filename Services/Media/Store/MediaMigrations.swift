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
        // Which uploads name each public, content-addressed object (the same picture uploaded twice is one
        // object): deleting an upload deletes an object only when no other upload names it.
        Migration(version: 3, name: "public objects by their uploads") { kind in
            let backfill =
                switch kind {
                case .postgres:
                    """
                    INSERT INTO public_objects (object_key, upload_id)
                    SELECT DISTINCT variant->>'key', id FROM uploads, json_array_elements(variants::json) AS variant
                    WHERE variants IS NOT NULL AND purpose <> 'chatPhoto'
                    """
                case .sqlite:
                    """
                    INSERT INTO public_objects (object_key, upload_id)
                    SELECT DISTINCT json_extract(variant.value, '$.key'), uploads.id FROM uploads, json_each(uploads.variants) AS variant
                    WHERE uploads.variants IS NOT NULL AND uploads.purpose <> 'chatPhoto'
                    """
                }
            return [
                "CREATE TABLE public_objects (object_key TEXT NOT NULL, upload_id TEXT NOT NULL, PRIMARY KEY (object_key, upload_id))",
                "CREATE INDEX public_objects_by_upload ON public_objects (upload_id)",
                backfill,
            ]
        },
    ]
}
