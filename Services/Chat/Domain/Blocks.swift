import Contracts
import Foundation
import ServiceHTTP
import ServiceStore

/// Players whose messages I do not want to see. A change is told to `cache` with its commit, so
/// live sockets filter by the new set.
struct Blocks: Sendable {
    let database: Database
    let people: any PeopleStore
    let cache: BlockCache
    let now: @Sendable () -> Date

    func list(by user: UserID, page: PageRequest) async throws -> Page<ChatBlock> {
        try await database.read { sql in try await people.blocks(by: user, page: page, on: sql) }
    }

    func block(_ blocked: UserID, by user: UserID) async throws -> ChatBlock {
        guard blocked != user else { throw ChatError.cannotMessageSelf }
        let block = try await database.transaction { sql in
            if try await people.block(blocked, by: user, at: now(), on: sql) { try await cache.changed(by: user, on: sql) }
            guard let block = try await people.block(of: blocked, by: user, on: sql) else { throw CommonError.internalError }
            return block
        }
        cache.forget(user)
        return block
    }

    func unblock(_ blocked: UserID, by user: UserID) async throws {
        try await database.transaction { sql in
            try await people.unblock(blocked, by: user, on: sql)
            try await cache.changed(by: user, on: sql)
        }
        cache.forget(user)
    }
}
