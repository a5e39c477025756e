import Contracts
import Logging
import NIOConcurrencyHelpers
import SQLKit
import ServiceLifecycle
import ServiceStore

/// Whom each user blocked, for the live sockets: read once per user and kept until it changes. A
/// block or unblock is announced with its commit on `ChangeChannel.chatBlocks` (NOTIFY, so every
/// instance hears it) and each instance forgets that user's set, so the next message is checked
/// against the new one.
///
/// Kept until changed rather than re-read every few seconds: with 1,000 sockets in a room, a re-read
/// per socket when the sets aged out put p99 fan-out across two instances at 99–116 ms; without
/// the re-reads it was 26–30 ms (`huddle-bench chat --instances 2`).
final class BlockCache: Service, Sendable {
    private struct State {
        var sets: [UserID: Set<UserID>] = [:]
        /// Sets that changed since they were read: answered only while the store cannot be read.
        var outdated: [UserID: Set<UserID>] = [:]
        /// Counts what was forgotten: a read that began before a change must not be kept after it.
        var generation = 0
    }

    /// Past this many users the sets are all read again (a bound, not a cost of the usual load).
    static let capacity = 100_000

    private let database: Database
    private let people: any PeopleStore
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(database: Database, people: any PeopleStore, logger: Logger) {
        self.database = database
        self.people = people
        self.logger = logger
    }

    /// The users `user` blocked if known; nil when they must be read.
    func cached(by user: UserID) -> Set<UserID>? { state.withLockedValue { $0.sets[user] } }

    /// The users `user` blocked; the last known set while the store cannot be read (a socket keeps going).
    func blocked(by user: UserID) async -> Set<UserID> {
        let generation = state.withLockedValue { $0.generation }
        if let blocked = cached(by: user) { return blocked }
        let people = self.people
        guard let blocked = try? await database.read({ sql in try await people.blocked(by: user, on: sql) }) else {
            return state.withLockedValue { $0.outdated[user] } ?? []
        }
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.sets.count >= Self.capacity { state.sets = [:] }
            state.sets[user] = blocked
            state.outdated[user] = nil
        }
        return blocked
    }

    /// Announces, with the transaction's commit, that `user`'s blocks changed.
    func changed(by user: UserID, on sql: any SQLDatabase) async throws {
        try await database.notify(channel: ChangeChannel.chatBlocks, payload: user.description, on: sql)
    }

    /// Forgets each user whose blocks changed; everyone, when listening (again): what was announced
    /// meanwhile was missed.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.database.keepListening(
                channel: ChangeChannel.chatBlocks, logger: self.logger,
                onListening: { _ in self.forget(nil) },
                handle: { payload in if let user = UserID(payload) { self.forget(user) } })
        }
    }

    /// Forgets `user`'s set (everyone's when nil). Called after a change commits on this instance
    /// too, so its own sockets do not wait for the announcement.
    func forget(_ user: UserID?) {
        state.withLockedValue { state in
            state.generation += 1
            if state.outdated.count >= Self.capacity { state.outdated = [:] }
            if let user {
                if let set = state.sets.removeValue(forKey: user) { state.outdated[user] = set }
            } else {
                state.outdated.merge(state.sets) { _, newer in newer }
                state.sets = [:]
            }
        }
    }
}
