import Contracts
import Foundation
import Logging
import ServiceLifecycle
import ServiceStore

/// Sends the rooms' held chat pushes when their quiet interval ends: in one transaction it takes a
/// batch due (locked, skipping those another worker holds), writes its players' pushes and marks it
/// sent, so each goes once however many workers and replicas run and whenever one is killed.
struct ChatPushWorker: Service {
    let database: Database
    let pushes: ChatPushes
    let batch: Int
    let poll: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    func run() async throws {
        await DueWork(database: database, batch: batch, poll: poll, logger: logger, now: now).run(
            "chat pushes", take: sendOnce, nextDue: { sql in try await pushes.windows.nextDue(on: sql) })
    }

    /// Sends the batches due; answers how many.
    func sendOnce() async throws -> Int {
        try await database.transaction { sql in try await pushes.sendDue(batch, on: sql) }
    }
}
