import ServiceStore

/// Notify's schema. A notification and the push jobs for its user's devices are written in one
/// transaction, with the event that caused them; a job is a row until a worker has sent it, so a
/// restart loses no push.
enum NotifyMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "devices, notifications, preferences, push jobs and what events tell") { kind in
            [
                // A token belongs to one user: registering it again moves it.
                """
                CREATE TABLE devices (
                    token TEXT PRIMARY KEY, user_id TEXT NOT NULL, platform TEXT NOT NULL, environment TEXT, topic TEXT,
                    registered_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX devices_by_user ON devices (user_id, registered_at)",
                """
                CREATE TABLE notifications (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, category TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
                    data TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL, read_at \(kind.timestamp))
                """,
                "CREATE INDEX notifications_by_user ON notifications (user_id, created_at, id)",
                "CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL",
                // Only categories a user turned off (or back on) have a row: everything is pushed by default.
                """
                CREATE TABLE preferences (
                    user_id TEXT NOT NULL, category TEXT NOT NULL, pushed \(kind.boolean) NOT NULL, PRIMARY KEY (user_id, category))
                """,
                // One push of one notification to one device. `state`: pending (due at run_at), sent, dropped.
                """
                CREATE TABLE push_jobs (
                    id TEXT PRIMARY KEY, notification_id TEXT NOT NULL, token TEXT NOT NULL, platform TEXT NOT NULL,
                    environment TEXT, topic TEXT, urgent \(kind.boolean) NOT NULL, time_sensitive \(kind.boolean) NOT NULL,
                    state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, run_at \(kind.timestamp) NOT NULL,
                    expires_at \(kind.timestamp) NOT NULL, last_error TEXT, finished_at \(kind.timestamp))
                """,
                "CREATE INDEX push_jobs_due ON push_jobs (state, run_at)",
                // What other services' events say, for the text and the recipients.
                "CREATE TABLE people (user_id TEXT PRIMARY KEY, name TEXT NOT NULL)",
                "CREATE TABLE teams (team_id TEXT PRIMARY KEY, name TEXT NOT NULL, manager_id TEXT NOT NULL)",
                """
                CREATE TABLE games (
                    game_id TEXT PRIMARY KEY, name TEXT NOT NULL, organizer_id TEXT NOT NULL, starts_at \(kind.timestamp) NOT NULL)
                """,
            ]
        },
        .inbox(version: 2),
        Migration(version: 3, name: "reminders") { kind in
            [
                "ALTER TABLE games ADD COLUMN time_zone TEXT",
                // `state`: pending (due at due_at), sent, cancelled.
                """
                CREATE TABLE reminders (
                    game_id TEXT NOT NULL, user_id TEXT NOT NULL, kind TEXT NOT NULL, due_at \(kind.timestamp) NOT NULL,
                    state TEXT NOT NULL, sent_at \(kind.timestamp), PRIMARY KEY (game_id, user_id, kind))
                """,
                "CREATE INDEX reminders_due ON reminders (state, due_at)",
            ]
        },
        Migration(version: 4, name: "pushes keep the trace that caused them") { _ in
            ["ALTER TABLE push_jobs ADD COLUMN traceparent TEXT", "ALTER TABLE push_jobs ADD COLUMN tracestate TEXT"]
        },
        // A game's place, so a move in place is told (`Location` as JSON).
        Migration(version: 5, name: "games keep their place") { _ in ["ALTER TABLE games ADD COLUMN location TEXT"] },
        // Chat pushes: not kept in the inbox, paced per player and room (`ChatPushPacing`), those held
        // for the end of a quiet interval gathered per room and due time (`state`: pending, sent).
        Migration(version: 6, name: "chat pushes") { kind in
            [
                "ALTER TABLE notifications ADD COLUMN kept \(kind.boolean) NOT NULL DEFAULT TRUE",
                """
                CREATE TABLE chat_push_windows (
                    user_id TEXT NOT NULL, room_id TEXT NOT NULL, next_at \(kind.timestamp) NOT NULL, held_until \(kind.timestamp),
                    PRIMARY KEY (user_id, room_id))
                """,
                "CREATE INDEX chat_push_windows_held ON chat_push_windows (room_id, held_until)",
                // `texts`: the latest message's push in each language (`NotificationText.Texts` as JSON).
                """
                CREATE TABLE chat_push_batches (
                    room_id TEXT NOT NULL, due_at \(kind.timestamp) NOT NULL, texts TEXT NOT NULL, data TEXT NOT NULL,
                    messages INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (room_id, due_at))
                """,
                "CREATE INDEX chat_push_batches_due ON chat_push_batches (state, due_at)",
            ]
        },
        // The language each player reads (BCP 47, from auth's profile events).
        Migration(version: 7, name: "languages") { _ in ["ALTER TABLE people ADD COLUMN locale TEXT"] },
        // Chat pushes paced per room rather than per player, whom a batch goes to asked of chat when it is
        // due (`ChatPushes`): a room's window is the latest of its players', a batch keeps its latest message.
        Migration(version: 8, name: "chat pushes paced per room") { kind in
            [
                """
                CREATE TABLE chat_push_rooms (
                    room_id TEXT PRIMARY KEY, next_at \(kind.timestamp) NOT NULL, held_until \(kind.timestamp))
                """,
                """
                INSERT INTO chat_push_rooms (room_id, next_at, held_until)
                SELECT room_id, MAX(next_at), MAX(held_until) FROM chat_push_windows GROUP BY room_id
                """,
                "DROP TABLE chat_push_windows",
                "ALTER TABLE chat_push_batches DROP COLUMN texts",
            ]
        },
        // A job is leased by a column no index holds, and a sent one is deleted: on PostgreSQL the claim
        // rewrites the row in its page (a HOT update, with room left in the page for it) and the send marks
        // it dead, where both wrote a new version of the row into every index. The queue's index keeps the
        // pending jobs only. `SQLPushJobStore` says how.
        Migration(version: 9, name: "push jobs leased apart from when they are due, and deleted once sent") { kind in
            [
                "ALTER TABLE push_jobs ADD COLUMN leased_until \(kind.timestamp)",
                "DROP INDEX push_jobs_due",
                "CREATE INDEX push_jobs_due ON push_jobs (run_at) WHERE state = 'pending'",
                "DELETE FROM push_jobs WHERE state = 'sent'",
            ] + (kind == .postgres ? ["ALTER TABLE push_jobs SET (fillfactor = 70)"] : [])
        },
        // A job carries what its push shows and whose it is (`PushContent`), and a push kept in no inbox
        // (a chat message's) has no notification row: it was one row more per recipient, written, read
        // back by the worker and pruned. Pending jobs take their notification's words; rows kept in no
        // inbox go.
        Migration(version: 10, name: "push jobs carry what they show") { _ in
            ["user_id", "category", "title", "body", "data"].map { "ALTER TABLE push_jobs ADD COLUMN \($0) TEXT NOT NULL DEFAULT ''" } + [
                "DELETE FROM push_jobs WHERE state = 'pending' AND notification_id NOT IN (SELECT id FROM notifications)",
                """
                UPDATE push_jobs SET
                    user_id = (SELECT n.user_id FROM notifications n WHERE n.id = push_jobs.notification_id),
                    category = (SELECT n.category FROM notifications n WHERE n.id = push_jobs.notification_id),
                    title = (SELECT n.title FROM notifications n WHERE n.id = push_jobs.notification_id),
                    body = (SELECT n.body FROM notifications n WHERE n.id = push_jobs.notification_id),
                    data = (SELECT n.data FROM notifications n WHERE n.id = push_jobs.notification_id)
                WHERE state = 'pending'
                """,
                "DELETE FROM notifications WHERE NOT kept",
                "ALTER TABLE notifications DROP COLUMN kept",
            ]
        },
        // A push many devices show alike (a chat message's) is a row per hundred of its devices
        // (`targets`: JSON, a device left blank when withdrawn), answered in order (`answered`: how many
        // of its `devices` are done). `SQLPushJobStore` says why.
        Migration(version: 11, name: "push jobs shared by a push's devices") { _ in
            [
                "ALTER TABLE push_jobs ADD COLUMN targets TEXT",
                "ALTER TABLE push_jobs ADD COLUMN devices INTEGER NOT NULL DEFAULT 1",
                "ALTER TABLE push_jobs ADD COLUMN answered INTEGER NOT NULL DEFAULT 0",
            ]
        },
    ]
}
