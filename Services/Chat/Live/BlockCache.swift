import Contracts
import Foundation
import ServiceKit

/// Whom each user blocked, for the live sockets: read at most every `maxAge` per user (shared by that
/// user's sockets on this instance), so a block made anywhere takes effect on every socket within
/// that, and 1,000 sockets do not read the store for each message.
actor BlockCache {
    private let database: Database
    private let people: any PeopleStore
    private let maxAge: Duration
    private var entries: [UserID: (blocked: Set<UserID>, readAt: ContinuousClock.Instant)] = [:]

    init(database: Database, people: any PeopleStore, maxAge: Duration = .seconds(2)) {
        self.database = database
        self.people = people
        self.maxAge = maxAge
    }

    /// The users `user` blocked; empty while the store cannot be read (a socket keeps going).
    func blocked(by user: UserID) async -> Set<UserID> {
        if let entry = entries[user], ContinuousClock.now - entry.readAt < maxAge { return entry.blocked }
        let people = self.people
        guard let blocked = try? await database.read({ sql in try await people.blocked(by: user, on: sql) }) else {
            return entries[user]?.blocked ?? []
        }
        entries[user] = (blocked, .now)
        if entries.count > 10_000 { entries = entries.filter { ContinuousClock.now - $0.value.readAt < maxAge } }
        return blocked
    }
}
