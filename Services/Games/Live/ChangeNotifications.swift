import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

/// Carries changes of one kind (rounds, matches) between instances of the games service that
/// share one PostgreSQL database: each change is NOTIFYed on the kind's channel with its commit, and
/// every instance LISTENs and hands the announcement to its `LiveFeed`. On SQLite there is one
/// instance and nothing to carry. At shutdown it ends the live subscriptions, so open sockets close
/// and the server can stop.
struct ChangeNotifications<Key: Hashable & Sendable & LosslessStringConvertible, Message: VersionedMessage>: Service {
    let channel: String
    let database: Database
    let live: LiveFeed<Key, Message>
    let logger: Logger

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
                        channel: channel,
                        onListening: {
                            // Announcements sent while no one listened are read from the log now.
                            if reconnecting { await live.catchUpAll() }
                        },
                        handle: { payload in
                            let parts = payload.split(separator: ":")
                            guard parts.count == 2, let subject = Key(String(parts[0])), let version = Int(parts[1]) else { return }
                            await live.changed(subject, version: version)
                        })
                } catch is CancellationError {
                    break
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("\(channel) notifications interrupted, listening again: \(error)")
                }
                connectedBefore = true
                try? await Task.sleep(for: .seconds(1))
            }
        }
        await live.closeAll()
    }
}

/// The NOTIFY channels of live changes, and their payload: `subject:version`.
enum ChangeChannel {
    static let rounds = "huddle_rounds"
    static let matches = "huddle_matches"

    static func payload(_ subject: some CustomStringConvertible, version: Int) -> String { "\(subject):\(version)" }
}
