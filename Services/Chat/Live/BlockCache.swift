import Contracts
import ServiceKit

/// Whom each user blocked, for the live sockets: read at most every `maxAge` per user (shared by that
/// user's sockets on this instance), so a block made anywhere takes effect on every socket within
/// that, and 1,000 sockets do not read the store for each message.
final class BlockCache: Sendable {
    private let database: Database
    private let people: any PeopleStore
    private let reads: RecentReads<UserID, Set<UserID>>

    init(database: Database, people: any PeopleStore, maxAge: Duration = .seconds(2)) {
        self.database = database
        self.people = people
        self.reads = RecentReads(maxAge: maxAge)
    }

    /// The users `user` blocked if read less than `maxAge` ago; nil when they must be read.
    func cached(by user: UserID) -> Set<UserID>? { reads.fresh(user) }

    /// The users `user` blocked; the last known set while the store cannot be read (a socket keeps going).
    func blocked(by user: UserID) async -> Set<UserID> {
        if let blocked = reads.fresh(user) { return blocked }
        let people = self.people
        guard let blocked = try? await database.read({ sql in try await people.blocked(by: user, on: sql) }) else {
            return reads.last(user) ?? []
        }
        reads.remember([user: blocked])
        return blocked
    }
}
