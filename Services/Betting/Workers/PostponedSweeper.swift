import Foundation
import Logging
import ServiceLifecycle
import ServiceStore

/// Voids the legs on postponed fixtures whose deadline passed without a new kickoff, every `interval`.
/// Safe on any number of instances: each fixture is settled in one transaction that first takes its
/// deadline off (one instance wins it).
struct PostponedSweeper: Service {
    let interval: Duration
    let database: Database
    let store: any FixtureStore
    let settler: Settler
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        await database.repeatUntilShutdown {
            await sweep()
            return interval
        }
    }

    func sweep() async {
        do {
            let overdue = try await database.read { sql in try await store.overdue(at: now(), on: sql) }
            for id in overdue {
                try await database.transaction { sql in
                    guard try await store.takeDueDeadline(id, at: now(), on: sql) else { return }
                    try await settler.voidPostponed(id, on: sql)
                }
            }
        } catch {
            logger.warning("postponed fixtures: \(error); tried again in \(interval)")
        }
    }
}
