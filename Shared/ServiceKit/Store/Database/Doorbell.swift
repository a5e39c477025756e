public import Logging
public import SQLKit
public import ServiceHTTP
public import ServiceLifecycle

/// Wakes polling workers on every instance as soon as there is work: whoever commits new work
/// notifies the doorbell's channel with the commit (`Database.notify`), and each instance's listener
/// rings its `bell`, on which its workers wait for at most their poll interval. Polling stays as the
/// safety net for a missed ring; the ring takes the poll interval out of the latency (a push waited
/// up to 200 ms for the next poll).
public final class Doorbell: Service, Sendable {
    public let channel: String
    public let bell = Bell()
    private let database: Database
    private let logger: Logger

    public init(channel: String, database: Database, logger: Logger) {
        self.channel = channel
        self.database = database
        self.logger = logger
    }

    /// Announces new work with the transaction's commit, to this process and every replica.
    public func ring(on sql: any SQLDatabase) async throws {
        try await database.notify(channel: channel, payload: "", on: sql)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.database.keepListening(channel: self.channel, logger: self.logger) { _ in self.bell.ring() }
        }
    }
}
