import ArgumentParser
import Contracts
import Foundation
import HuddleEffects
import Logging
import ProviderStandIns
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import ServiceStore

/// `huddle-bench pushes`: notify runs as `huddle --modules auth,notify` in a process of its own,
/// pushing to the stand-in's APNs (HTTP/2 over TLS) in this process:
/// 1. reminders: `--reminders` players each with an iPhone and a reminder, due spread over
///    `--window` seconds, written straight into notify's store; the lateness of each push at the
///    stand-in (arrival minus due), p50/p99, pushes a second, and any sent twice;
/// 2. event → push: `--games` new team games, each inviting a `--team`-member team whose members
///    have iPhones, delivered to notify's `/internal/events` as games would; the time from the
///    delivery to each member's push at the stand-in, p50/p99.
struct PushesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pushes", abstract: "Reminder pushes and event-to-push latency.")

    @Option(help: "Reminders due in the window (one player, one iPhone each).") var reminders = 100_000
    @Option(help: "Seconds over which the reminders fall due.") var window = 60
    @Option(help: "Members of the team each game invites.") var team = 30
    @Option(help: "Team games for the event-to-push latency.") var games = 20
    @Option(help: "A PostgreSQL URL whose user may create databases; a SQLite file when absent.") var postgres: String?

    func run() async throws {
        try await BenchStore.with(postgres: postgres, name: "pushes") { store in
            let data = store.directory
            let (notifyDB, authDB) = (try await store.url("notify"), try await store.url("auth"))
            try await withPushStandIns { pushSettings, _, recorder in
                let settings =
                    [
                        "auth.http.port=28081", "notify.http.port=28087",
                        "auth.db.url=\(authDB)",
                        "notify.db.url=\(notifyDB)",
                    ] + pushSettings.map { "\($0.key)=\($0.value)" }
                let server = try ChildProcess.huddle(["--modules", "auth,notify"], settings: settings, data: data)
                defer { server.stop() }
                try await ChildProcess.waitForHealth("http://127.0.0.1:28087")
                let database = try await Database.open(url: notifyDB, now: Effects.system.now, logger: .quiet("bench"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await database.run() }
                    defer { group.cancelAll() }
                    try await reminderPushes(database, recorder: recorder)
                    try await eventToPush(database, recorder: recorder)
                }
            }
        }
    }

    /// A player's id and iPhone token from their number, so a push's token says whose reminder it was.
    private static func player(_ index: Int) -> (UserID, String) {
        let hex = String(index, radix: 16)
        let id = UserID(UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!)
        return (id, String(repeating: "0", count: 64 - hex.count) + hex)
    }

    private func reminderPushes(_ database: Database, recorder: PushRecorder) async throws {
        let game = GameID(), start = Effects.system.now().addingTimeInterval(10)
        let written = ContinuousClock.now
        var due: [String: Date] = [:]
        let chunk = 1000
        for first in stride(from: 0, to: reminders, by: chunk) {
            let rows = (first..<min(reminders, first + chunk)).map { index -> (UserID, String, Date) in
                let (user, token) = Self.player(index)
                return (user, token, start.addingTimeInterval(Double(window) * Double(index) / Double(reminders)))
            }
            for (_, token, at) in rows { due[token] = at }
            try await database.transaction { sql in
                if first == 0 {
                    try await sql.insert(into: "games").columns("game_id", "name", "organizer_id", "starts_at")
                        .values(
                            SQLBind(game.description), SQLBind("Bench game"), SQLBind(UserID().description),
                            SQLBind(start.addingTimeInterval(7200))
                        )
                        .run()
                }
                var devices = sql.insert(into: "devices").columns("token", "user_id", "platform", "environment", "topic", "registered_at")
                var queued = sql.insert(into: "reminders").columns("game_id", "user_id", "kind", "due_at", "state")
                for (user, token, at) in rows {
                    devices = devices.values(
                        SQLBind(token), SQLBind(user.description), SQLBind("apns"), SQLBind("sandbox"), SQLBind("app.huddle.ios"),
                        SQLBind(Effects.system.now()))
                    queued = queued.values(
                        SQLBind(game.description), SQLBind(user.description), SQLBind("soon"), SQLBind(at), SQLBind("pending"))
                }
                try await devices.run()
                try await queued.run()
            }
        }
        print(
            String(
                format: "pushes: %d reminders written in %.1f s, due over %d s from %@", reminders, (ContinuousClock.now - written).seconds,
                window, "\(start)"))
        let deadline = start.addingTimeInterval(Double(window) + 180)
        while Effects.system.now() < deadline, recorder.tokenCount(service: "apns") < reminders {
            try await Task.sleep(for: .milliseconds(500))
        }
        let received = recorder.attempts(service: "apns")
        var lateness: [Double] = [], arrivals: [Date] = [], twice = 0, refused = 0
        for (token, attempts) in received {
            guard let dueAt = due[token] else { continue }
            let accepted = attempts.filter { $0.status == 200 }
            refused += attempts.count - accepted.count
            if accepted.count > 1 { twice += 1 }
            if let first = accepted.first?.receivedAt {
                lateness.append(first.timeIntervalSince(dueAt) * 1000)
                arrivals.append(first)
            }
        }
        lateness.sort()
        arrivals.sort()
        let span = (arrivals.last ?? start).timeIntervalSince(arrivals.first ?? start)
        print(
            String(
                format:
                    "pushes: %d of %d reminders pushed, %d sent twice, %d refused; lateness p50 %.0f ms, p99 %.0f ms, max %.0f ms; %.0f pushes/s over %.1f s",
                lateness.count, reminders, twice, refused, percentile(lateness, 0.5), percentile(lateness, 0.99),
                lateness.last ?? .nan,
                Double(arrivals.count) / max(span, 0.001), span))
    }

    private func eventToPush(_ database: Database, recorder: PushRecorder) async throws {
        let notify = TestClient(baseURL: "http://127.0.0.1:28087")
        let members = (0..<team).map { Self.player(reminders + 1 + $0) }
        try await database.transaction { sql in
            var devices = sql.insert(into: "devices").columns("token", "user_id", "platform", "environment", "topic", "registered_at")
            for (user, token) in members {
                devices = devices.values(
                    SQLBind(token), SQLBind(user.description), SQLBind("apns"), SQLBind("sandbox"), SQLBind("app.huddle.ios"),
                    SQLBind(Effects.system.now()))
            }
            try await devices.run()
        }
        var latencies: [Double] = []
        for round in 0..<games {
            let before = recorder.attempts(service: "apns")
            let game = Game(
                id: GameID(), kind: .team, teamId: TeamID(), teamName: "Bench Rovers", organizerId: UserID(),
                startsAt: Effects.system.now().addingTimeInterval(7 * 86_400), sport: .cricket, privacy: .public, ageGroup: .adult,
                gender: .coed,
                skill: .any,
                createdAt: Effects.system.now())
            let event = try GameEvent.created.event(
                GameEvent.GameChanged(game: game, invited: members.map(\.0)), aggregateID: game.id.description,
                occurredAt: Effects.system.now())
            let sent = Effects.system.now()
            try await notify.deliver([event], to: .notify)
            let wanted = members.map { (before[$0.1]?.count ?? 0) + 1 }
            let deadline = Effects.system.now().addingTimeInterval(30)
            var now = recorder.attempts(service: "apns")
            while Effects.system.now() < deadline, zip(members, wanted).contains(where: { (now[$0.0.1]?.count ?? 0) < $0.1 }) {
                try await Task.sleep(for: .milliseconds(5))
                now = recorder.attempts(service: "apns")
            }
            for (member, count) in zip(members, wanted) {
                if let arrived = now[member.1]?.dropFirst(count - 1).first?.receivedAt {
                    latencies.append(arrived.timeIntervalSince(sent) * 1000)
                }
            }
            if round == 0 { latencies.removeAll() }  // the first game warms the connection up
        }
        latencies.sort()
        print(
            String(
                format: "pushes: event to push for a %d-member team game, %d games: p50 %.1f ms, p99 %.1f ms, max %.1f ms", team, games - 1,
                percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.last ?? .nan))
    }
}
