import Foundation
import Logging
import SQLKit
import ServiceStore

/// How notify's scheduled work is drained (reminders, held chat pushes): a batch at a time, again at
/// once after a full batch, otherwise asleep until the next is due, looking again at least every
/// `poll` (work scheduled meanwhile may be due sooner).
struct DueWork: Sendable {
    let database: Database
    let batch: Int
    let poll: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    /// `take` does one batch and answers how many it did; `nextDue` answers when the next is due.
    func run(
        _ name: String, take: @escaping @Sendable () async throws -> Int,
        nextDue: @escaping @Sendable (any SQLDatabase) async throws -> Date?
    ) async {
        await database.repeatUntilShutdown {
            do {
                if try await take() == batch { return .zero }
                let next = try await database.read { sql in try await nextDue(sql) }
                guard let wait = next?.timeIntervalSince(now()) else { return poll }
                return max(.zero, min(poll, .milliseconds(Int64(wait * 1000))))
            } catch {
                // Stopping cancels the work under way; that is not worth a warning.
                if !Task.isCancelled { logger.warning("\(name): \(error)") }
                return poll
            }
        }
    }
}
