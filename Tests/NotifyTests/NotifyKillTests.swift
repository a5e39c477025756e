import AuthService
import Contracts
import Foundation
import HuddleEffects
import NIOHTTP1
import ProviderStandIns
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

@testable import NotifyService

/// Two `notify` replicas share one PostgreSQL while reminders fall due, beside chat pushes kept in
/// rows their devices share, and each is killed with SIGKILL several times and started again.
/// Afterwards every reminder fired once (one inbox entry, one push job each) and every phone had its
/// push; a push sent just before a kill and not yet
/// recorded goes again, always with the notification's id as `apns-collapse-id`, so the phone
/// shows it once, and no more of them than the killed replica had in flight.
///
/// It runs when `HUDDLE_KILL_TESTS=1` (`.ci/run` runs the kill tests on their own after the suite).
/// `HUDDLE_NOTIFY_KILL_REMINDERS` and `HUDDLE_NOTIFY_KILLS` make it larger.
@Suite("Notify survives SIGKILL", .serialized)
struct NotifyKillTests {
    static let enabled =
        TestStore.postgresURL != nil && ServiceProcess.isBuilt("notify") && ProcessInfo.processInfo.environment["HUDDLE_KILL_TESTS"] == "1"

    static let reminders = ProcessInfo.processInfo.environment["HUDDLE_NOTIFY_KILL_REMINDERS"].flatMap(Int.init) ?? 2000
    static let kills = ProcessInfo.processInfo.environment["HUDDLE_NOTIFY_KILLS"].flatMap(Int.init) ?? 4
    /// Seconds over which the reminders fall due.
    static let window = 8.0
    /// Chat pushes due over the window beside the reminders, each to this many devices (two shared rows).
    static let chatPushes = 10, chatDevices = 200

    @Test(
        "reminders due while two replicas are killed and restarted: each fires once, each phone is pushed, repeats share the collapse id",
        .enabled(if: enabled))
    func survivesKills() async throws {
        let url = try await TestStore.postgres.freshDatabaseURL()
        try await withPushStandIns { pushSettings, _, recorder in
            let builders = [ModuleBuilder.auth]
            try await TestStack.with(builders, store: .sqlite) { auth in
                let settings = pushSettings.merging([
                    // Chat is not part of this: an address nothing answers, which notify needs to start.
                    "notify.db.url": url, "notify.db.pool": "8", "auth.url": auth.url(.auth), "chat.url": "http://127.0.0.1:9",
                    "notify.reminders.poll.ms": "50", "notify.push.poll.ms": "50", "notify.push.lease.ms": "2000", "log.level": "critical",
                ]) { _, new in new }
                let replicas = try [ServiceProcess("notify", settings: settings), ServiceProcess("notify", settings: settings)]
                try await replicas[0].start()  // migrates the store
                let database = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("notify-kill-test"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await database.run() }
                    defer { group.cancelAll() }
                    do {
                        let players = try await seed(database)
                        let chatPhones = try await seedChatPushes(database)
                        try await replicas[1].start()
                        try await killAndRestart(replicas)
                        try await waitUntilDone(database)
                        try await check(database, players: players, chatPhones: chatPhones, recorder: recorder)
                    } catch {
                        for replica in replicas { await replica.stop() }
                        throw error
                    }
                    for replica in replicas { await replica.stop() }
                }
            }
        }
    }

    /// A game and `reminders` players, each with an iPhone and a reminder due within the window.
    private func seed(_ database: Database) async throws -> [UserID: String] {
        let start = Date().addingTimeInterval(1)
        let game = Game(
            id: GameID(), kind: .pickup, organizerId: UserID(), startsAt: start.addingTimeInterval(3600), sport: .cricket,
            privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, createdAt: Date())
        let players = Dictionary(uniqueKeysWithValues: (0..<Self.reminders).map { _ in (UserID(), NotifyHarness.apnsToken()) })
        try await database.transaction { sql in
            try await SQLDirectoryStore().saveGame(game, on: sql)
            for (index, (user, token)) in players.enumerated() {
                try await SQLDeviceStore().register(
                    Device(platform: .apns, token: token, environment: .sandbox, topic: "app.huddle.ios", registeredAt: Date()), for: user,
                    on: sql)
                let due = start.addingTimeInterval(Self.window * Double(index) / Double(Self.reminders))
                try await SQLReminderStore(kind: .postgres).schedule(game.id, user, due: [.soon: due], on: sql)
            }
        }
        return players
    }

    /// `chatPushes` pushes kept in no inbox, due over the window, each shown alike by `chatDevices`
    /// phones; answers each phone's room (a chat push collapses by it).
    private func seedChatPushes(_ database: Database) async throws -> [String: RoomID] {
        let start = Date().addingTimeInterval(1)
        let pushes = (0..<Self.chatPushes).map { index in
            SharedPushRowsTests.jobs(
                Self.chatDevices, content: SharedPushRowsTests.content(.chatMessage),
                at: start.addingTimeInterval(Self.window * Double(index) / Double(Self.chatPushes)))
        }
        try await database.transaction { sql in
            for jobs in pushes { try await SQLPushJobStore(kind: .postgres).enqueue(jobs, on: sql) }
        }
        return Dictionary(uniqueKeysWithValues: pushes.joined().map { ($0.device.token, $0.content.data.roomId!) })
    }

    /// Kills a replica at a random moment while reminders fall due, and starts it again; the
    /// replicas take turns.
    private func killAndRestart(_ replicas: [ServiceProcess]) async throws {
        for kill in 0..<Self.kills {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...(Int(Self.window * 1000) / Self.kills))))
            let replica = replicas[kill % replicas.count]
            await replica.kill()
            try await replica.start()
        }
    }

    /// Until every reminder has fired and every push job is finished (the killed replicas' leases
    /// run out after two seconds).
    private func waitUntilDone(_ database: Database) async throws {
        let done = try await eventually(within: .seconds(60), every: .milliseconds(100)) {
            try await database.read { sql in
                try await sql.raw(
                    """
                    SELECT (SELECT COUNT(*) FROM reminders WHERE state = 'pending')
                         + (SELECT COUNT(*) FROM push_jobs WHERE state = 'pending') AS n
                    """
                ).first()?.decode(column: "n", as: Int.self) ?? 0
            } == 0
        }
        if !done { Issue.record("reminders or pushes still pending after a minute") }
    }

    private func check(_ database: Database, players: [UserID: String], chatPhones: [String: RoomID], recorder: PushRecorder)
        async throws
    {
        let (fired, notes, jobs) = try await database.read { sql in
            (
                try await sql.raw("SELECT COUNT(*) AS n FROM reminders WHERE state = 'sent'").first()?.decode(column: "n", as: Int.self),
                try await sql.raw("SELECT id, user_id FROM notifications WHERE category = 'reminder'").all()
                    .map { (try $0.decode(column: "id", as: String.self), try $0.decode(column: "user_id", as: String.self)) },
                try await sql.raw("SELECT notification_id, state FROM push_jobs").all()
                    .map { (try $0.decode(column: "notification_id", as: String.self), try $0.decode(column: "state", as: String.self)) }
            )
        }
        #expect(fired == players.count)
        // Fired once: one inbox entry per player; every push job sent (a sent job is deleted), none dropped.
        #expect(notes.count == players.count)
        #expect(Set(notes.map(\.1)) == Set(players.keys.map(\.description)))
        #expect(jobs.isEmpty, "jobs left: \(jobs.prefix(5))")
        let noteOf = Dictionary(uniqueKeysWithValues: notes.map { ($0.1, $0.0) })
        let received = recorder.attempts(service: "apns")
        var repeated = 0
        for (user, token) in players {
            let accepted = (received[token] ?? []).filter { $0.status == 200 }
            #expect(!accepted.isEmpty, "no push reached \(token)")
            #expect(accepted.allSatisfy { $0.headers["apns-collapse-id"] == noteOf[user.description] })
            if accepted.count > 1 { repeated += 1 }
        }
        var chatRepeated = 0
        for (token, room) in chatPhones {
            let accepted = (received[token] ?? []).filter { $0.status == 200 }
            #expect(!accepted.isEmpty, "no chat push reached \(token)")
            #expect(accepted.allSatisfy { $0.headers["apns-collapse-id"] == room.description })
            if accepted.count > 1 { chatRepeated += 1 }
        }
        // A shared row's answers count once all before them are in, so those recorded out of turn
        // (at most the sends under way) go again too.
        #expect(chatRepeated <= Self.kills * 2 * (32 + 16 + 32))
        // A repeat is a push the killed replica had sent and not yet recorded: per kill at most its
        // two workers' sends under way (32 each) and the answers waiting to be written (16 each).
        #expect(repeated <= Self.kills * 2 * (32 + 16))
        print(
            "notify kill test: \(players.count) reminders and \(chatPhones.count) chat pushes in shared rows, \(Self.kills) kills, "
                + "\(repeated) reminders' and \(chatRepeated) chat pushes repeated (same collapse id)")
    }
}
