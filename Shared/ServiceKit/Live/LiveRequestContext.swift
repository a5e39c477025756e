public import Hummingbird
public import HummingbirdWebSocket

/// The request context of WebSocket upgrades (a round's card, a match, chat).
public struct LiveRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
    }
}
