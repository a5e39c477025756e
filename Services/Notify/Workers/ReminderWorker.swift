import Contracts
import Foundation
import Logging
import ServiceLifecycle
import ServiceStore

/// Fires due reminders: in one transaction it takes a batch of due reminders (locked, skipping
/// those another worker holds) and writes each one's notification and push jobs, so a reminder
/// fires once however many workers and replicas run and whenever one is killed.
struct ReminderWorker: Service {
    let database: Database
    let store: any ReminderStore
    let directory: any DirectoryStore
    let notifications: Notifications
    let batch: Int
    let poll: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    func run() async throws {
        await DueWork(database: database, batch: batch, poll: poll, logger: logger, now: now).run(
            "reminders", take: fireOnce, nextDue: { sql in try await store.nextDue(on: sql) })
    }

    /// Fires one batch; answers how many reminders it fired. The players due for the same game and
    /// kind share one text, made once.
    func fireOnce() async throws -> Int {
        try await database.transaction { sql in
            let due = try await store.takeDue(batch, at: now(), on: sql)
            let games = try await directory.games(Set(due.map(\.game)), on: sql)
            let plans = Dictionary(grouping: due) { [$0.game.description, $0.kind.rawValue] }.values.compactMap { same -> Planned? in
                guard let first = same.first, let game = games[first.game] else { return nil }
                return Self.planned(first.kind, of: first.game, game, for: same.map(\.user))
            }
            try await notifications.deliver(plans, on: sql)
            return due.count
        }
    }

    static func planned(_ kind: ReminderSchedule.Kind, of id: GameID, _ game: KnownGame, for players: [UserID]) -> Planned {
        let zone = NotificationText.zone(game.timeZone)
        if kind == .answer {
            return Planned(
                recipients: players, category: .rsvpReminder,
                text: NotificationText.rsvpReminder(game.name, startsAt: game.startsAt, timeZone: zone), data: NotificationData(gameId: id),
                answers: Answerable(game: id, kickoff: game.startsAt))
        }
        let soon = kind == .soon
        return Planned(
            recipients: players, category: .reminder,
            text: soon
                ? NotificationText.startsSoon(game.name, kickoff: game.startsAt, timeZone: zone)
                : NotificationText.gameDay(game.name, kickoff: game.startsAt, timeZone: zone),
            data: NotificationData(gameId: id), urgent: soon, timeSensitive: soon, answers: Answerable(game: id, kickoff: game.startsAt))
    }
}
