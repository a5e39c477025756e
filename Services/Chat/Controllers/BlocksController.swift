import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/blocks...`: players whose messages I do not want to see.
struct BlocksController: Controller {
    let blocks: Blocks

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.blocks) { request, context in try await blocks.list(by: context.userID, page: try PageRequest(request)) }
        router.on(ChatAPI.block) { _, context in
            try await blocks.block(try context.parameters.id(UserID.self, at: "userId"), by: context.userID)
        }
        router.on(ChatAPI.unblock) { _, context in
            try await blocks.unblock(try context.parameters.id(UserID.self, at: "userId"), by: context.userID)
            return NoContent()
        }
    }
}

/// `/internal/chat/blocks/...`: a block asked for with a report (moderation).
struct BlocksInternalController: Controller {
    let blocks: Blocks

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.Internal.block) { _, context in
            try await blocks.block(try context.parameters.id(UserID.self, at: "userId"), by: try context.parameters.id(UserID.self))
        }
    }
}
