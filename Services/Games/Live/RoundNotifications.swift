import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

/// Carries round changes between instances of the games service that share one PostgreSQL
/// database: each change is NOTIFYed with its commit (`Rounds`), and every instance LISTENs and
/// hands the announcement to its `LiveRounds`. On SQLite there is one instance and nothing to carry.
/// At shutdown it ends the live subscriptions, so open sockets close and the server can stop.
struct RoundNotifications: Service {
    static let channel = "huddle_rounds"

    let database: Database
    let live: LiveRounds
    let logger: Logger

    static func payload(_ round: RoundID, version: Int) -> String { "\(round):\(version)" }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            guard database.kind == .postgres else {
                try? await gracefulShutdown()
                return
            }
            var connectedBefore = false
            while !Task.isCancelled {
                let reconnecting = connectedBefore
                do {
                    try await database.listen(
                        channel: Self.channel,
                        onListening: {
                            // Announcements sent while no one listened are read from the log now.
                            if reconnecting { await live.catchUpAll() }
                        },
                        handle: { payload in
                            let parts = payload.split(separator: ":")
                            guard parts.count == 2, let round = RoundID(String(parts[0])), let version = Int(parts[1]) else { return }
                            await live.changed(round, version: version)
                        })
                } catch is CancellationError {
                    break
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("round notifications interrupted, listening again: \(error)")
                }
                connectedBefore = true
                try? await Task.sleep(for: .seconds(1))
            }
        }
        await live.closeAll()
    }
}
