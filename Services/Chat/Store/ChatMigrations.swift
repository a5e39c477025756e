import ServiceStore

/// Chat's schema. A room's `last_seq` numbers its messages and `version` its changes (a message, an
/// edit, a deletion, a member leaving): both are taken by updating the room's row in the transaction
/// that writes the change, so concurrent senders queue on that row and a rolled-back send leaves no
/// gap.
enum ChatMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "rooms, members, messages and their changes") { kind in
            [
                // subject: the team, game or match id; `global`; for a direct room, the two user ids in order.
                """
                CREATE TABLE rooms (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, subject TEXT NOT NULL, name TEXT NOT NULL,
                    last_seq INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0,
                    starts_at \(kind.timestamp), ended_at \(kind.timestamp), closed_at \(kind.timestamp),
                    last_activity \(kind.timestamp) NOT NULL, UNIQUE (kind, subject))
                """,
                "CREATE INDEX rooms_by_kind ON rooms (kind, starts_at)",
                // Who may use a team, game or direct room; global and match rooms are open to everyone signed in.
                "CREATE TABLE room_members (room_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (room_id, user_id))",
                "CREATE INDEX room_members_by_user ON room_members (user_id, room_id)",
                "CREATE TABLE read_markers (room_id TEXT NOT NULL, user_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (user_id, room_id))",
                """
                CREATE TABLE messages (
                    id TEXT PRIMARY KEY, room_id TEXT NOT NULL, seq INTEGER NOT NULL, sender_id TEXT NOT NULL,
                    sender_name TEXT NOT NULL, text TEXT NOT NULL, client_message_id TEXT NOT NULL,
                    sent_at \(kind.timestamp) NOT NULL, edited_at \(kind.timestamp), deleted_at \(kind.timestamp),
                    UNIQUE (room_id, seq), UNIQUE (room_id, sender_id, client_message_id))
                """,
                // Every change of a room by version, read by the live feed: `message`, `edited`, `deleted`
                // (with the message) or `left` (with the user who may no longer use the room).
                """
                CREATE TABLE room_changes (
                    room_id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL, message_id TEXT, user_id TEXT,
                    PRIMARY KEY (room_id, version))
                """,
                "CREATE TABLE blocks (user_id TEXT NOT NULL, blocked_id TEXT NOT NULL, blocked_at \(kind.timestamp) NOT NULL, PRIMARY KEY (user_id, blocked_id))",
                "CREATE INDEX blocks_by_blocked ON blocks (blocked_id, user_id)",
                // Players' display names, from auth's profile events (and asked of auth when missing).
                "CREATE TABLE people (user_id TEXT PRIMARY KEY, name TEXT NOT NULL)",
            ]
        },
        .inbox(version: 2),
        // Flood control's buckets, so the limit holds across instances.
        Migration(version: 3, name: "flood buckets in the store") { kind in
            [
                """
                CREATE TABLE flood_buckets (
                    user_id TEXT NOT NULL, room_id TEXT NOT NULL, tokens DOUBLE PRECISION NOT NULL, updated_at \(kind.timestamp) NOT NULL,
                    PRIMARY KEY (user_id, room_id))
                """,
                "CREATE INDEX flood_buckets_updated ON flood_buckets(updated_at)",
            ]
        },
        // A message enough players reported is withheld until a moderator decides.
        Migration(version: 4, name: "messages withheld for review") { kind in
            ["ALTER TABLE messages ADD COLUMN hidden_at \(kind.timestamp)"]
        },
        // Photos: a message's (`[Media]` as JSON) and each player's profile picture (`PictureSizes` as JSON).
        Migration(version: 5, name: "photos") { _ in
            ["ALTER TABLE messages ADD COLUMN attachments TEXT", "ALTER TABLE people ADD COLUMN picture TEXT"]
        },
        // Chat publishes the photos a deleted message no longer shows, for media to delete.
        .outbox(version: 6),
        .outboxTraceContext(version: 7),
        .outboxInTransactionOrder(version: 8),
        .outboxDelivery(version: 9),
        // Pushes: who muted which room (until when; for good when NULL), and which device's socket is
        // subscribed to which room now, on any instance (a row lives while its instance keeps renewing it).
        Migration(version: 10, name: "mutes and sockets' presence") { kind in
            [
                """
                CREATE TABLE room_mutes (
                    user_id TEXT NOT NULL, room_id TEXT NOT NULL, muted_until \(kind.timestamp), PRIMARY KEY (user_id, room_id))
                """,
                """
                CREATE TABLE room_presence (
                    socket_id TEXT NOT NULL, room_id TEXT NOT NULL, user_id TEXT NOT NULL, instance_id TEXT NOT NULL,
                    expires_at \(kind.timestamp) NOT NULL, PRIMARY KEY (socket_id, room_id))
                """,
                "CREATE INDEX room_presence_by_room ON room_presence (room_id, user_id)",
                "CREATE INDEX room_presence_by_instance ON room_presence (instance_id)",
            ]
        },
        // When each change of a room was made, so that old ones can go (`roomchanges`); those made before
        // count from now.
        Migration(version: 11, name: "room changes' time") { kind in
            [
                "ALTER TABLE room_changes ADD COLUMN changed_at \(kind.timestamp)",
                "UPDATE room_changes SET changed_at = "
                    + (kind == .postgres ? "now()" : "CAST(strftime('%s', 'now') AS REAL)"),
            ]
        },
    ]
}
