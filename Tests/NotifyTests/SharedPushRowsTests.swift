import Contracts
import Foundation
import Logging
import NIOHTTP1
import ProviderStandIns
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@testable import NotifyService

/// A push that many devices show alike (a chat message's to a room's members away) is a row per
/// hundred devices: claimed by how many devices it holds, answered in order, and a device the push
/// service refuses leaves it as a job of its own.
@Suite struct SharedPushRowsTests {
    static let logger = Logger(label: "shared-push-rows-test")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: TestStore.all)
    func aPushAlikeForManyDevicesIsARowPerHundredClaimedByDevices(store: TestStore) async throws {
        try await Self.withQueue(store) { database, jobs in
            let chat = Self.jobs(250, content: Self.content(.chatMessage))
            // Due a second later, so it is claimed after the shared rows.
            let reminder = Self.jobs(1, content: Self.content(.reminder), at: Self.now.addingTimeInterval(1))[0]
            try await database.transaction { sql in try await jobs.enqueue(chat + [reminder], on: sql) }
            #expect(try await Self.rows(database) == 4)

            let first = try await Self.claim(100, jobs, database, at: Self.now)
            #expect(first.map(\.device.token) == chat.prefix(100).map(\.device.token))
            #expect(first.map { $0.shared?.index } == Array(0..<100))
            #expect(Set(first.map(\.id)).count == 1 && first.allSatisfy { $0.content == chat[0].content && $0.shared?.devices == 100 })
            // About 150 devices: the next row, and the one after it, which starts before 150 are reached.
            let next = try await Self.claim(150, jobs, database, at: Self.now)
            #expect(next.map(\.device.token) == chat.dropFirst(100).map(\.device.token))
            #expect(next.map(\.recipient) == chat.dropFirst(100).map(\.recipient))
            let last = try await Self.claim(100, jobs, database, at: Self.now.addingTimeInterval(2))
            #expect(last.count == 1 && last.first?.shared == nil && last.first?.device.token == reminder.device.token)
        }
    }

    @Test(arguments: TestStore.all)
    func aRowClaimedAgainAfterItsLeaseGoesOnWhereItsAnswersStopped(store: TestStore) async throws {
        try await Self.withQueue(store) { database, jobs in
            let chat = Self.jobs(100, content: Self.content(.chatMessage))
            try await database.transaction { sql in try await jobs.enqueue(chat, on: sql) }
            let row = try #require(try await Self.claim(100, jobs, database, at: Self.now).first?.id)
            try await database.transaction { sql in
                try await jobs.advance(row, answered: 40, of: 100, leaseUntil: Self.now.addingTimeInterval(30), on: sql)
            }
            // Leased still: no one else takes it.
            #expect(try await Self.claim(100, jobs, database, at: Self.now.addingTimeInterval(29)).isEmpty)
            // Its player erased, a token removed: out of the row, the others' places kept.
            try await database.transaction { sql in
                try await jobs.withdraw(chat[50].recipient, on: sql)
                try await jobs.dropPending(token: chat[60].device.token, reason: "device removed", at: Self.now, on: sql)
            }
            let resumed = try await Self.claim(100, jobs, database, at: Self.now.addingTimeInterval(31))
            #expect(resumed.map { $0.shared?.index } == Array(40..<100).filter { $0 != 50 && $0 != 60 })
            #expect(resumed.allSatisfy { $0.shared?.answered == 40 })
            try await database.transaction { sql in
                try await jobs.advance(row, answered: 100, of: 100, leaseUntil: Self.now.addingTimeInterval(60), on: sql)
            }
            #expect(try await Self.rows(database) == 0)
        }
    }

    @Test(arguments: TestStore.all)
    func aRowWhoseDevicesLeftWereAllWithdrawnIsDroppedWhenClaimed(store: TestStore) async throws {
        try await Self.withQueue(store) { database, jobs in
            let chat = Self.jobs(2, content: Self.content(.chatMessage))
            try await database.transaction { sql in
                try await jobs.enqueue(chat, on: sql)
                for job in chat { try await jobs.withdraw(job.recipient, on: sql) }
            }
            #expect(try await Self.claim(100, jobs, database, at: Self.now).isEmpty)
            #expect(try await Self.rows(database) == 0)
        }
    }

    /// Through notify's worker and the stand-in's APNs: each good device pushed once, the row gone;
    /// an unregistered token forgotten and a wrong topic dropped, each a job of its own with why.
    @Test(arguments: TestStore.all)
    func aSharedPushReachesEachDeviceOnceAndSetsTheRefusedApart(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben")
            let gone = NotifyHarness.apnsToken(), otherApp = NotifyHarness.apnsToken()
            _ = try await expect(201, harness.register(gone, ana))
            _ = try await expect(
                201,
                harness.notify.call(
                    NotifyAPI.registerDevice, body: RegisterDevice(platform: .apns, token: otherApp, topic: "com.example.other"),
                    token: ben.accessToken))
            _ = try await expect(204, harness.standIn.raw(.POST, "/test/apns/tokens/\(gone)/unregister"))
            let content = Self.content(.chatMessage)
            var all = Self.jobs(150, content: content, at: Date())
            all[30].recipient = ana.user.id
            all[30].device.token = gone
            all[120].recipient = ben.user.id
            all[120].device.token = otherApp
            all[120].device.topic = "com.example.other"
            let jobs = SQLPushJobStore(kind: harness.store.kind)
            try await harness.store.transaction { [all] sql in try await jobs.enqueue(all, on: sql) }

            let good = all.map(\.device.token).filter { $0 != gone && $0 != otherApp }
            try await harness.apnsDeliveries(good.last!, reaching: 1)
            for token in good {
                let pushes = try await harness.apnsDeliveries(token, reaching: 1)
                // A chat push collapses by its room.
                #expect(pushes.count == 1 && pushes.first?.headers["apns-collapse-id"] == content.data.roomId?.description)
            }
            #expect(try await harness.apnsDeliveries(gone, reaching: 1, rejected: true).first?.reason == "Unregistered")
            #expect(try await harness.apnsDeliveries(otherApp, reaching: 1, rejected: true).first?.reason == "DeviceTokenNotForTopic")
            let left = try await poll {
                try await harness.store.read { sql in
                    try await sql.raw("SELECT user_id, token, state, last_error, targets FROM push_jobs ORDER BY token").all()
                }
            } until: {
                $0.count == 2
            }
            let byToken = try Dictionary(
                uniqueKeysWithValues: left.map {
                    (
                        try $0.decode(column: "token", as: String.self),
                        (
                            try $0.decode(column: "user_id", as: String.self), try $0.decode(column: "state", as: String.self),
                            try $0.decode(column: "last_error", as: String?.self), try $0.decode(column: "targets", as: String?.self)
                        )
                    )
                })
            #expect(byToken[gone]?.0 == ana.user.id.description && byToken[gone]?.1 == "dropped" && byToken[gone]?.2 == "Unregistered")
            #expect(byToken[otherApp]?.0 == ben.user.id.description && byToken[otherApp]?.2 == "DeviceTokenNotForTopic")
            #expect(byToken.values.allSatisfy { $0.3 == nil })
            // The unregistered phone is forgotten; the other app's stays (its token is fine).
            let devices = { (player: Session) in
                try await expect(200, harness.notify.call(NotifyAPI.devices, token: player.accessToken)).decode(Page<Device>.self).items
            }
            #expect(try await devices(ana).isEmpty)
            #expect(try await devices(ben).count == 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.apnsDeliveries(good[0]).count == 1)
        }
    }

    @Test func answersOutOfTurnMoveARowOnlyAsFarAsAllBeforeAreDone() {
        let row = PushJobID()
        // Places 2..<6 claimed; 4 was withdrawn, so it has no job.
        let claimed = [2, 3, 5].map { index in
            var job = Self.jobs(1, content: Self.content(.chatMessage))[0]
            job.id = row
            job.shared = SharedRow(index: index, answered: 2, devices: 6)
            return job
        }
        var progress = SharedProgress(claimed)
        // Not moved, but still told: its lease is held on.
        #expect(progress.answer([(row, 3)]).map { [$0.answered, $0.devices] } == [[2, 6]])
        // 2 and 3 done, and 4 blank: up to 5.
        #expect(progress.answer([(row, 2)]).map { [$0.answered, $0.devices] } == [[5, 6]])
        #expect(progress.answer([(row, 5)]).map { [$0.answered, $0.devices] } == [[6, 6]])
        // Finished and told: not again.
        #expect(progress.answer([]).isEmpty)
    }

    /// A fresh notify store, migrated, and its push queue.
    static func withQueue(_ store: TestStore, _ body: (Database, SQLPushJobStore) async throws -> Void) async throws {
        try await store.withDatabase(logger: logger) { database in
            try await database.migrate(NotifyMigrations.all, logger: logger)
            try await body(database, SQLPushJobStore(kind: database.kind))
        }
    }

    static func content(_ category: NotificationCategory) -> PushContent {
        PushContent(
            id: .timeOrdered(at: now), category: category, title: "Ana in Rovers", body: "Kick-off moved?",
            data: NotificationData(userId: UserID(), roomId: RoomID(), messageId: ChatMessageID()))
    }

    /// Jobs whose ids are in the order made (the same time's are not), so their rows are claimed in that order.
    static func jobs(_ count: Int, content: PushContent, at due: Date = now) -> [PushJob] {
        (0..<count).map { index in
            PushJob(
                id: .timeOrdered(at: due.addingTimeInterval(Double(index) / 1000)), content: content, recipient: UserID(),
                device: Device(
                    platform: .apns, token: NotifyHarness.apnsToken(), environment: .sandbox, topic: "app.huddle.ios", registeredAt: due),
                urgent: true, timeSensitive: false, attempts: 0, runAt: due, expiresAt: due.addingTimeInterval(3600))
        }
    }

    static func claim(_ limit: Int, _ jobs: SQLPushJobStore, _ database: Database, at now: Date) async throws -> [PushJob] {
        try await database.transaction { sql in try await jobs.claim(limit, dueBy: now, leaseUntil: now.addingTimeInterval(30), on: sql) }
    }

    static func rows(_ database: Database) async throws -> Int {
        try await database.read { sql in try await sql.raw("SELECT COUNT(*) AS n FROM push_jobs").first()?.decode(column: "n", as: Int.self)
        } ?? 0
    }
}
