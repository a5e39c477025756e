import Contracts
import Hummingbird
import ServiceKit

/// `/v1/chat/rooms/{id}/messages...`: a room's history, and my messages in it.
struct MessagesController: Controller {
    let messages: Messages

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.messages) { request, context in
            func seq(_ name: String) throws -> Int? {
                guard let value = try request.query(name, as: Int.self) else { return nil }
                guard ChatMessageLimits.seqRange.contains(value) else { throw CommonError.invalid(name, ChatMessageLimits.seqProblem) }
                return value
            }
            let limit = try request.query("limit", as: Int.self) ?? 20
            guard (1...100).contains(limit) else { throw CommonError.invalid("limit", "must be from 1 to 100") }
            return try await messages.history(
                of: try context.parameters.roomID(), before: try seq("before"), after: try seq("after"), limit: limit,
                viewer: context.userID)
        }
        router.on(
            ChatAPI.send,
            answering: { body, _, context in
                let (message, created) = try await messages.send(body, to: try context.parameters.roomID(), by: context.userID)
                return (message, created ? 201 : 200)
            })
        router.on(ChatAPI.edit) { body, _, context in
            try await messages.edit(
                try context.parameters.messageID(), in: try context.parameters.roomID(), text: body.text, by: context.userID)
        }
        router.on(ChatAPI.delete) { _, context in
            try await messages.delete(try context.parameters.messageID(), in: try context.parameters.roomID(), by: context.userID)
            return NoContent()
        }
    }
}
