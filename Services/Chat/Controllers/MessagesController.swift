import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/rooms/{id}/messages...`: a room's history, and my messages in it.
struct MessagesController: Controller {
    let messages: Messages

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.messages, use: history)
        router.on(ChatAPI.send, answering: send)
        let sender: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await messages.requireSender(
                of: try $0.parameters.id(ChatMessageID.self, at: "messageId"), in: try $0.parameters.id(RoomID.self), user: $0.userID)
        }
        router.on(ChatAPI.edit, authorizing: sender, use: edit)
        router.on(ChatAPI.delete, use: delete)
    }

    /// `GET /v1/chat/rooms/{id}/messages`
    @Sendable func history(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<ChatMessage> {
        try await messages.history(
            of: try context.parameters.id(RoomID.self), before: try request.query(ChatAPI.messagesBefore),
            after: try request.query(ChatAPI.messagesAfter), limit: try request.query(Query.limit), viewer: context.userID)
    }

    /// `POST /v1/chat/rooms/{id}/messages`: 201 for a new message, 200 for one its client id already sent.
    @Sendable func send(_ body: SendChatMessage, _ request: Request, _ context: AuthenticatedContext) async throws -> (
        ChatMessage, status: Int
    ) {
        let (message, created) = try await messages.send(body, to: try context.parameters.id(RoomID.self), by: context.userID)
        return (message, created ? 201 : 200)
    }

    /// `PATCH /v1/chat/rooms/{id}/messages/{messageId}`
    @Sendable func edit(_ body: EditChatMessage, _ request: Request, _ context: AuthenticatedContext) async throws -> ChatMessage {
        try await messages.edit(
            try context.parameters.id(ChatMessageID.self, at: "messageId"), in: try context.parameters.id(RoomID.self), text: body.text,
            by: context.userID)
    }

    /// `DELETE /v1/chat/rooms/{id}/messages/{messageId}`
    @Sendable func delete(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await messages.delete(
            try context.parameters.id(ChatMessageID.self, at: "messageId"), in: try context.parameters.id(RoomID.self),
            by: context.userID)
        return NoContent()
    }
}

/// `/internal/moderation/...` of chat: a message as a reporter sees it.
struct ChatModerationController: Controller {
    let messages: Messages

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .chat), use: subject)
    }

    /// `GET /internal/moderation/subjects/{type}/{id}`
    @Sendable func subject(_ request: Request, _ context: HuddleRequestContext) async throws -> SubjectSnapshot {
        try await messages.reported(
            try context.parameters.id(ChatMessageID.self), viewer: try request.query(ModerationAPI.Internal.viewer))
    }
}
