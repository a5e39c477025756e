public import Contracts

extension ChatAPI {
    public enum Internal {
        /// A report made with `block: true`: the reporter blocks the player, as `PUT /v1/chat/blocks/{userId}` does.
        public static let block = Endpoint<InternalCaller, NoBody, ChatBlock>(
            .put, "/internal/chat/blocks/{id}/{userId}", owner: .chat, summary: "Player id blocks player userId (idempotent)",
            problems: [.cannotMessageSelf])
        public static let all: [APIOperation] = [
            block.operation,
            EventsAPI.deliver(to: .chat).operation, EventsAPI.applied(by: .chat).operation, PersonalDataAPI.export(of: .chat).operation,
            ModerationAPI.Internal.subject(at: .chat).operation,
        ]
    }
}
