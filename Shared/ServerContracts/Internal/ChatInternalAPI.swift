public import Contracts

extension ChatAPI {
    public enum Internal {
        /// A report made with `block: true`: the reporter blocks the player, as `PUT /v1/chat/blocks/{userId}` does.
        public static let block = Endpoint<InternalCaller, NoBody, ChatBlock>(
            .put, "/internal/chat/blocks/{id}/{userId}", owner: .chat, summary: "Player id blocks player userId (idempotent)",
            problems: [.cannotMessageSelf])
        /// Whether a player may use a room (its photos are read by its members only): 204, or 404.
        public static let roomMember = Endpoint<InternalCaller, NoBody, NoContent>(
            .get, "/internal/chat/rooms/{id}/members/{userId}", owner: .chat,
            summary: "204 when the player may use the room, 404 otherwise",
            status: 204, problems: [.notFound])
        public static let all: [APIOperation] =
            [
                block.operation, roomMember.operation,
                EventsAPI.deliver(to: .chat).operation, EventsAPI.applied(by: .chat).operation, PersonalDataAPI.export(of: .chat).operation,
                ModerationAPI.Internal.subject(at: .chat).operation,
            ] + EventsAPI.publisherOperations(of: .chat)
    }
}
