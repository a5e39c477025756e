import Foundation
public import Logging
public import ServiceHTTP
public import ServiceLifecycle

/// Carries changes of one kind (rounds, matches, chat rooms) to every instance of a service: each
/// change is notified on the kind's channel with its commit (`Database.notify`: NOTIFY on a shared
/// PostgreSQL, this process on SQLite), and every instance listens and hands the announcement to
/// its `LiveFeed`. At shutdown it ends the live subscriptions, so open sockets close and the
/// server can stop.
public struct ChangeNotifications<Key: Hashable & Sendable & LosslessStringConvertible, Message: VersionedMessage>: Service {
    let channel: String
    let database: Database
    let live: LiveFeed<Key, Message>
    let logger: Logger

    public init(channel: String, database: Database, live: LiveFeed<Key, Message>, logger: Logger) {
        self.channel = channel
        self.database = database
        self.live = live
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await database.keepListening(
                channel: channel, logger: logger,
                onListening: { again in
                    // Announcements sent while no one listened are read from the log now.
                    if again { await live.catchUpAll() }
                },
                handle: { payload in
                    let parts = payload.split(separator: ":")
                    guard parts.count == 2, let subject = Key(String(parts[0])), let version = Int(parts[1]) else { return }
                    await live.changed(subject, version: version)
                })
        }
        await live.closeAll()
    }
}

/// The NOTIFY channels of live changes, and their payload: `subject:version` unless said otherwise.
public enum ChangeChannel {
    public static let rounds = "huddle_rounds"
    public static let matches = "huddle_matches"
    public static let chatRooms = "huddle_chat_rooms"
    /// Chat's blocks: the payload is the id of the user whose blocks changed.
    public static let chatBlocks = "huddle_chat_blocks"

    public static func payload(_ subject: some CustomStringConvertible, version: Int) -> String { "\(subject):\(version)" }
}
