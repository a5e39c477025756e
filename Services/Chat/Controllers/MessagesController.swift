import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/rooms/{id}/messages...`: a room's history, and my messages in it.
struct MessagesController: Controller {
    let messages: Messages

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.messages) { request, context in
            try await messages.history(
                of: try context.parameters.id(RoomID.self), before: try request.query(ChatAPI.messagesBefore),
                after: try request.query(ChatAPI.messagesAfter), limit: try request.query(Query.limit), viewer: context.userID)
        }
        router.on(
            ChatAPI.send,
            answering: { body, _, context in
                let (message, created) = try await messages.send(body, to: try context.parameters.id(RoomID.self), by: context.userID)
                return (message, created ? 201 : 200)
            })
        let sender: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await messages.requireSender(
                of: try $0.parameters.id(ChatMessageID.self, at: "messageId"), in: try $0.parameters.id(RoomID.self), user: $0.userID)
        }
        router.on(ChatAPI.edit, authorizing: sender) { body, _, context in
            try await messages.edit(
                try context.parameters.id(ChatMessageID.self, at: "messageId"), in: try context.parameters.id(RoomID.self), text: body.text,
                by: context.userID)
        }
        router.on(ChatAPI.delete) { _, context in
            try await messages.delete(
                try context.parameters.id(ChatMessageID.self, at: "messageId"), in: try context.parameters.id(RoomID.self),
                by: context.userID)
            return NoContent()
        }
    }
}

/// `/internal/moderation/...` of chat: a message as a reporter sees it.
struct ChatModerationController: Controller {
    let messages: Messages

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .chat)) { request, context in
            try await messages.reported(
                try context.parameters.id(ChatMessageID.self), viewer: try request.query(ModerationAPI.Internal.viewer))
        }
    }
}
