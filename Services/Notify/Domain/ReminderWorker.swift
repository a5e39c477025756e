import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

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
        await database.repeatUntilShutdown {
            do {
                return try await fireOnce() == batch ? .zero : poll
            } catch {
                logger.warning("reminders: \(error)")
                return poll
            }
        }
    }

    /// Fires one batch; answers how many reminders it fired.
    func fireOnce() async throws -> Int {
        try await database.transaction { sql in
            let due = try await store.takeDue(batch, at: now(), on: sql)
            for reminder in due {
                guard let game = try await directory.game(reminder.game, on: sql) else { continue }
                let zone = game.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
                let soon = reminder.kind == .soon
                try await notifications.deliver(
                    Planned(
                        recipients: [reminder.user], category: .reminder,
                        text: soon
                            ? NotificationText.startsSoon(game.name, kickoff: game.startsAt, timeZone: zone)
                            : NotificationText.gameDay(game.name, kickoff: game.startsAt, timeZone: zone),
                        data: NotificationData(gameId: reminder.game), urgent: soon, timeSensitive: soon),
                    on: sql)
            }
            return due.count
        }
    }
}
