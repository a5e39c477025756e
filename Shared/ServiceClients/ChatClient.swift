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

    /// The messages still shown, each with the players to push it to now, asked in as few calls as the
    /// endpoint's limit allows.
    public func messagePushes(_ ids: [ChatMessageID], requestID: String? = nil) async throws -> [ChatMessagePush] {
        var pushes: [ChatMessagePush] = []
        for start in stride(from: 0, to: ids.count, by: MessagePushesRequest.maxIDs) {
            let slice = Array(ids[start..<min(start + MessagePushesRequest.maxIDs, ids.count)])
            pushes += try await client.call(ChatAPI.Internal.messagePushes, body: MessagePushesRequest(ids: slice), requestID: requestID)
                .items
        }
        return pushes
    }
}
