import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/chat/blocks...`: players whose messages I do not want to see.
struct BlocksController: Controller {
    let database: Database
    let people: any PeopleStore
    /// Told of each change, with its commit, so live sockets filter by the new set.
    let blocks: BlockCache
    let now: @Sendable () -> Date

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.blocks) { request, context in
            let page = try PageRequest(request)
            return try await database.read { sql in try await people.blocks(by: context.userID, page: page, on: sql) }
        }
        router.on(ChatAPI.block) { _, context in
            let blocked = try context.parameters.id(UserID.self, at: "userId"), user = context.userID
            guard blocked != user else { throw ChatError.cannotMessageSelf }
            let block = try await database.transaction { sql in
                if try await people.block(blocked, by: user, at: now(), on: sql) { try await blocks.changed(by: user, on: sql) }
                guard let block = try await people.block(of: blocked, by: user, on: sql) else { throw CommonError.internalError }
                return block
            }
            blocks.forget(user)
            return block
        }
        router.on(ChatAPI.unblock) { _, context in
            let blocked = try context.parameters.id(UserID.self, at: "userId"), user = context.userID
            try await database.transaction { sql in
                try await people.unblock(blocked, by: user, on: sql)
                try await blocks.changed(by: user, on: sql)
            }
            blocks.forget(user)
            return NoContent()
        }
    }
}
