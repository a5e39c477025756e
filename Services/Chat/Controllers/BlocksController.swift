import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/blocks...`: players whose messages I do not want to see.
struct BlocksController: Controller {
    let blocks: Blocks

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.blocks, use: listBlocks)
        router.on(ChatAPI.block, use: block)
        router.on(ChatAPI.unblock, use: unblock)
    }

    /// `GET /v1/chat/blocks`
    @Sendable func listBlocks(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<ChatBlock> {
        try await blocks.list(by: context.userID, page: try PageRequest(request))
    }

    /// `PUT /v1/chat/blocks/{userId}`
    @Sendable func block(_ request: Request, _ context: AuthenticatedContext) async throws -> ChatBlock {
        try await blocks.block(try context.parameters.id(UserID.self, at: "userId"), by: context.userID)
    }

    /// `DELETE /v1/chat/blocks/{userId}`
    @Sendable func unblock(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await blocks.unblock(try context.parameters.id(UserID.self, at: "userId"), by: context.userID)
        return NoContent()
    }
}

/// `/internal/chat/blocks/...`: a block asked for with a report (moderation).
struct BlocksInternalController: Controller {
    let blocks: Blocks

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.Internal.block, use: block)
    }

    /// `PUT /internal/chat/blocks/{id}/{userId}`
    @Sendable func block(_ request: Request, _ context: HuddleRequestContext) async throws -> ChatBlock {
        try await blocks.block(try context.parameters.id(UserID.self, at: "userId"), by: try context.parameters.id(UserID.self))
    }
}
