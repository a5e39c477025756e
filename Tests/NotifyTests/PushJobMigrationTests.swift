import Contracts
import Foundation
import Logging
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@testable import NotifyService

/// Jobs queued before a job carried what its push shows are sent with their notification's words.
@Suite("Push jobs queued before the jobs carried their words")
struct PushJobMigrationTests {
    static let logger = Logger(label: "push-job-migration-test")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestStore.all)
    func pendingJobsTakeTheirNotificationsWords(store: TestStore) async throws {
        try await store.withDatabase(logger: Self.logger) { database in
            // Through "push jobs leased apart from when they are due, and deleted once sent".
            try await database.migrate(NotifyMigrations.all.filter { $0.version <= 9 }, logger: Self.logger)
            let ana = UserID(), ben = UserID()
            let kept = NotificationID(), chat = NotificationID(), gone = NotificationID()
            let data = String(decoding: try HuddleJSON.encoder.encode(NotificationData(roomId: RoomID())), as: UTF8.self)
            try await database.transaction { sql in
                for (id, user, category, title, isKept) in [
                    (kept, ana, "newGame", "New game: Huddle Rovers", true), (chat, ben, "chatMessage", "Ana in Rovers", false),
                ] {
                    try await sql.insert(into: "notifications")
                        .columns("id", "user_id", "category", "title", "body", "data", "created_at", "read_at", "kept")
                        .values(
                            SQLBind(id.description), SQLBind(user.description), SQLBind(category), SQLBind(title),
                            SQLBind("body of \(title)"),
                            SQLBind(data), SQLBind(Self.now), SQLBind(isKept ? nil : Self.now), SQLBind(isKept)
                        ).run()
                }
                for (notification, token) in [(kept, "ana-phone"), (chat, "ben-phone"), (gone, "cid-phone")] {
                    try await sql.insert(into: "push_jobs")
                        .columns(
                            "id", "notification_id", "token", "platform", "urgent", "time_sensitive", "state", "run_at", "expires_at"
                        )
                        .values(
                            SQLBind(PushJobID().description), SQLBind(notification.description), SQLBind(token), SQLBind("apns"),
                            SQLBind(true), SQLBind(false), SQLBind("pending"), SQLBind(Self.now), SQLBind(Self.now.addingTimeInterval(3600))
                        ).run()
                }
            }
            try await database.migrate(NotifyMigrations.all, logger: Self.logger)

            let jobs = SQLPushJobStore(kind: database.kind)
            let claimed = try await database.transaction { sql in
                try await jobs.claim(10, dueBy: Self.now, leaseUntil: Self.now.addingTimeInterval(30), on: sql)
            }
            // The job whose notification was gone is dropped: it had nothing to show.
            let byToken = Dictionary(uniqueKeysWithValues: claimed.map { ($0.device.token, $0) })
            #expect(Set(byToken.keys) == ["ana-phone", "ben-phone"])
            #expect(byToken["ana-phone"]?.content.title == "New game: Huddle Rovers")
            #expect(byToken["ana-phone"]?.content.id == kept && byToken["ana-phone"]?.recipient == ana)
            #expect(byToken["ben-phone"]?.content.category == .chatMessage && byToken["ben-phone"]?.recipient == ben)
            #expect(byToken["ben-phone"]?.content.body == "body of Ana in Rovers")
            // The inbox keeps only what it shows.
            let left = try await database.read { sql in
                try await sql.select().column("id").from("notifications").all(decodingColumn: "id", as: String.self)
            }
            #expect(left == [kept.description])
        }
    }
}
