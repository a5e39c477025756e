public import Contracts
public import ServerContracts
public import ServiceHTTP

/// Chat's internal API as other modules need it: whom a message is pushed to.
public struct ChatClient: Sendable {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.client = InternalClient(.chat, dependencies: dependencies, timeout: timeout)
    }

    /// The message with the players to push it to now; nil once it was deleted or withheld.
    public func messagePush(_ id: ChatMessageID, requestID: String? = nil) async throws -> ChatMessagePush? {
        try await client.call(ChatAPI.Internal.messagePush, path: [id], requestID: requestID)
    }

    /// The messages still shown among `ids` (at most `MessagePushesRequest.maxIDs`), each with the players
    /// to push it to now.
    public func messagePushes(_ ids: [ChatMessageID], requestID: String? = nil) async throws -> [ChatMessagePush] {
        try await client.call(ChatAPI.Internal.messagePushes, body: MessagePushesRequest(ids: ids), requestID: requestID).items
    }
}
