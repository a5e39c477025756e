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

/// When reminders are due, on their own.
struct ReminderScheduleTests {
    let rules = ReminderSchedule(morningHour: 8, before: 3600)
    let tallinn = TimeZone(identifier: "Europe/Tallinn")!

    /// A fixed instant for these rules; a malformed literal is a broken test, so it stops here.
    func date(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { preconditionFailure("not an ISO 8601 instant: \(text)") }
        return date
    }

    @Test func gameDayMorningIsEightOClockWhereTheGameIsPlayed() {
        // 18:00 in Tallinn (UTC+2 in winter) is 16:00 UTC.
        let due = rules.dueTimes(
            kickoff: date("2026-12-05T16:00:00Z"), timeZone: tallinn, changedAt: date("2026-12-01T00:00:00Z"),
            now: date("2026-12-01T00:00:00Z"))
        #expect(due[.gameDay] == date("2026-12-05T06:00:00Z"))
        #expect(due[.soon] == date("2026-12-05T15:00:00Z"))
    }

    @Test func withoutATimeZoneTheMorningIsUTCs() {
        let due = rules.dueTimes(
            kickoff: date("2026-12-05T16:00:00Z"), timeZone: .gmt, changedAt: date("2026-12-01T00:00:00Z"),
            now: date("2026-12-01T00:00:00Z"))
        #expect(due[.gameDay] == date("2026-12-05T08:00:00Z"))
    }

    @Test func anEarlyGameGetsOnlyTheReminderBeforeKickoff() {
        // 08:30 in Tallinn: the hour-before reminder (07:30) comes before eight.
        let due = rules.dueTimes(
            kickoff: date("2026-12-05T06:30:00Z"), timeZone: tallinn, changedAt: date("2026-12-01T00:00:00Z"),
            now: date("2026-12-01T00:00:00Z"))
        #expect(due[.gameDay] == nil)
        #expect(due[.soon] == date("2026-12-05T05:30:00Z"))
    }

    @Test func remindersAlreadyPastAreLeftOut() {
        let due = rules.dueTimes(
            kickoff: date("2026-12-05T16:00:00Z"), timeZone: tallinn, changedAt: date("2026-12-05T10:00:00Z"),
            now: date("2026-12-05T10:00:00Z"))
        #expect(due[.gameDay] == nil && due[.soon] == date("2026-12-05T15:00:00Z"))
        #expect(
            rules.dueTimes(
                kickoff: date("2026-12-05T16:00:00Z"), timeZone: tallinn, changedAt: date("2026-12-05T15:30:00Z"),
                now: date("2026-12-05T15:30:00Z")
            ).isEmpty)
    }
}

/// Reminders made from real games, fired by the worker. Kickoff is set a little more than
/// `notify.reminders.before.ms` ahead, so the "starts soon" reminder falls due seconds later.
@Suite(.serialized) struct ReminderTests {
    static let before: TimeInterval = 3600
    static let config = ["notify.reminders.before.ms": "3600000", "notify.reminders.poll.ms": "50"]

    /// A kickoff whose reminder falls due `in` seconds from now.
    static func kickoff(remindingIn seconds: TimeInterval) -> Date {
        Date().addingTimeInterval(before + seconds).wholeSeconds
    }

    static func pickup(at kickoff: Date, timeZone: String? = "Europe/Tallinn") -> CreateGameRequest {
        CreateGameRequest(
            kind: .pickup, startsAt: kickoff, timeZone: timeZone, location: NotifyHarness.tallinn, sport: .cricket, privacy: .public,
            ageGroup: .adult, gender: .coed, skill: .intermediate, capacity: 10, description: "Cricket in Kadriorg")
    }

    @Test(arguments: TestStore.all)
    func goingPlayersAreRemindedOnceShortlyBeforeKickoffAndThoseWhoLeftAreNot(store: TestStore) async throws {
        try await NotifyHarness.with(store: store, config: Self.config) { harness in
            let olga = try await harness.player("Olga Organiser"), ana = try await harness.player("Ana"),
                ben = try await harness.player("Ben")
            let phone = NotifyHarness.apnsToken()
            _ = try await expect(201, harness.register(phone, olga))
            // Planned for much later: the joins and Ben's leaving reach notify long before any reminder is due.
            let game = try await expect(
                201,
                harness.games.call(GamesAPI.createGame, body: Self.pickup(at: Self.kickoff(remindingIn: 3600)), token: olga.accessToken)
            )
            .decode(Game.self)
            #expect(game.timeZone == "Europe/Tallinn")
            for player in [ana, ben] {
                _ = try await expect(200, harness.games.call(GamesAPI.joinGame, game.id, token: player.accessToken))
            }
            _ = try await expect(
                200,
                harness.games.call(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .notGoing), token: ben.accessToken))
            // Then moved to kick off shortly: games publishes the move after the roster's changes, and notify applies
            // them in that order, so the reminders due now are for those going when it moved, however busy the machine.
            // A move that reaches notify after its reminder's time still reminds: the reminder was to come when it moved.
            // The move itself must be made before that time: a reminder already past when games commits the move is
            // rightly left out, and under the full suite the request has taken more than two seconds.
            let kickoff = Self.kickoff(remindingIn: 15)
            _ = try await expect(
                200, harness.games.call(GamesAPI.updateGame, game.id, body: UpdateGameRequest(startsAt: kickoff), token: olga.accessToken))

            // The move travels games → notify by polling: on a machine running the whole suite that took most of a minute.
            let reminder = try #require(try await harness.inbox(olga, reaching: 1, within: .seconds(90)).items.first)
            #expect(reminder.category == .reminder && reminder.data.gameId == game.id)
            #expect(reminder.title == "Cricket in Kadriorg starts soon")
            #expect(
                reminder.body == "Kickoff at \(NotificationText.time(kickoff, in: TimeZone(identifier: "Europe/Tallinn")!)). See you there!"
            )
            #expect(try await harness.inbox(ana, reaching: 1).items.first?.category == .reminder)
            // The one an hour before breaks through Focus.
            let push = try #require(try await harness.apnsDeliveries(phone, reaching: 1).first)
            #expect(push.payload.contains("\"interruption-level\":\"time-sensitive\""))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.inbox(olga).items.count == 1)
            #expect(try await harness.inbox(ben).items.filter { $0.category == .reminder }.isEmpty)
        }
    }

    @Test(arguments: TestStore.all)
    func aGameThatMovesMovesItsRemindersAndACancelledOneHasNone(store: TestStore) async throws {
        try await NotifyHarness.with(store: store, config: Self.config) { harness in
            let olga = try await harness.player("Olga"), carl = try await harness.player("Carl")
            let moved = try await expect(
                201, harness.games.call(GamesAPI.createGame, body: Self.pickup(at: Self.kickoff(remindingIn: 15)), token: olga.accessToken)
            ).decode(Game.self)
            _ = try await expect(
                200,
                harness.games.call(
                    GamesAPI.updateGame, moved.id, body: UpdateGameRequest(startsAt: Self.kickoff(remindingIn: 3600)),
                    token: olga.accessToken))
            let cancelled = try await expect(
                201, harness.games.call(GamesAPI.createGame, body: Self.pickup(at: Self.kickoff(remindingIn: 15)), token: carl.accessToken)
            ).decode(Game.self)
            _ = try await expect(204, harness.games.call(GamesAPI.cancelGame, cancelled.id, token: carl.accessToken))
            // A third game falls due after the other two would have: once it has fired, they would have too.
            let marker = try await expect(
                201, harness.games.call(GamesAPI.createGame, body: Self.pickup(at: Self.kickoff(remindingIn: 20)), token: carl.accessToken)
            ).decode(Game.self)
            let carlsInbox = try await harness.inbox(carl, reaching: 1)
            #expect(carlsInbox.items.map(\.data.gameId) == [marker.id])
            #expect(try await harness.inbox(olga).items.isEmpty)
        }
    }

    @Test func twoWorkersFireEachReminderOnce() async throws {
        guard TestStore.all.contains(.postgres) else { return }
        try await NotifyHarness.with(store: .postgres, config: ["notify.reminders.poll.ms": "600000"]) { harness in
            let users = (0..<40).map { _ in UserID() }
            let game = GameID()
            let due = Date().addingTimeInterval(-1)
            try await harness.store.transaction { sql in
                try await sql.raw(
                    "INSERT INTO games (game_id, name, organizer_id, starts_at) VALUES (\(bind: game.description), 'Nets', \(bind: users[0].description), \(bind: Date().addingTimeInterval(3600)))"
                ).run()
                for user in users {
                    try await SQLReminderStore(kind: .postgres).schedule(game, user, due: [.soon: due], on: sql)
                }
            }
            let worker = { (batch: Int) in
                ReminderWorker(
                    database: harness.store, store: SQLReminderStore(kind: .postgres), directory: SQLDirectoryStore(),
                    notifications: Notifications(
                        database: harness.store, store: SQLNotificationStore(), devices: SQLDeviceStore(),
                        preferences: SQLPreferenceStore(), directory: SQLDirectoryStore(),
                        pushes: SQLPushJobStore(kind: .postgres), pushLifetime: 3600, pushesQueued: nil, answerToken: { _, _ in nil },
                        now: Date.init),
                    batch: batch, poll: .seconds(1), logger: .quiet("reminders"), now: Date.init)
            }
            let workers = [worker(3), worker(3)]
            let fired = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in workers {
                    group.addTask {
                        var total = 0
                        while true {
                            let count = try await worker.fireOnce()
                            if count == 0 { return total }
                            total += count
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(fired == users.count)
            let notes = try await harness.store.read { sql in
                try await sql.raw("SELECT user_id FROM notifications WHERE category = 'reminder'").all()
                    .map { try $0.decode(column: "user_id", as: String.self) }
            }
            #expect(notes.count == users.count && Set(notes).count == users.count)
        }
    }
}

extension ReminderScheduleTests {
    @Test("a player who has not answered is asked two days before kickoff, unless the game was planned closer than that")
    func anUnansweredPlayerIsAsked() {
        let rules = ReminderSchedule(morningHour: 8, before: 3600)
        let kickoff = Date(timeIntervalSince1970: 1_800_000_000), week = 7 * 86_400.0
        let planned = kickoff.addingTimeInterval(-week)
        #expect(
            rules.dueTimes(kickoff: kickoff, timeZone: .gmt, changedAt: planned, now: planned, answered: false)
                == [.answer: kickoff.addingTimeInterval(-2 * 86_400)])
        let late = kickoff.addingTimeInterval(-86_400)
        #expect(rules.dueTimes(kickoff: kickoff, timeZone: .gmt, changedAt: late, now: late, answered: false).isEmpty)
    }
}
