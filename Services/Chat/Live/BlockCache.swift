import Contracts
import Foundation
import NIOConcurrencyHelpers
import ServiceKit

/// Whom each user blocked, for the live sockets: read at most every `maxAge` per user (shared by that
/// user's sockets on this instance), so a block made anywhere takes effect on every socket within
/// that, and 1,000 sockets do not read the store for each message. A fresh entry is answered under
/// a lock, without a hop: every socket asks for every message, and through an actor those asks
/// queued behind each other.
final class BlockCache: Sendable {
    private struct Entry {
        let blocked: Set<UserID>
        let readAt: ContinuousClock.Instant
    }

    private let database: Database
    private let people: any PeopleStore
    private let maxAge: Duration
    private let entries = NIOLockedValueBox<[UserID: Entry]>([:])

    init(database: Database, people: any PeopleStore, maxAge: Duration = .seconds(2)) {
        self.database = database
        self.people = people
        self.maxAge = maxAge
    }

    /// The users `user` blocked if read less than `maxAge` ago; nil when they must be read.
    func cached(by user: UserID) -> Set<UserID>? {
        let now = ContinuousClock.now
        return entries.withLockedValue { entries in
            guard let entry = entries[user], now - entry.readAt < maxAge else { return nil }
            return entry.blocked
        }
    }

    /// The users `user` blocked; the last known set while the store cannot be read (a socket keeps going).
    func blocked(by user: UserID) async -> Set<UserID> {
        if let blocked = cached(by: user) { return blocked }
        let now = ContinuousClock.now
        let people = self.people
        guard let blocked = try? await database.read({ sql in try await people.blocked(by: user, on: sql) }) else {
            return entries.withLockedValue { $0[user]?.blocked } ?? []
        }
        entries.withLockedValue { entries in
            entries[user] = Entry(blocked: blocked, readAt: .now)
            if entries.count > 10_000 { entries = entries.filter { now - $0.value.readAt < maxAge } }
        }
        return blocked
    }
}
