public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore

/// The request context of WebSocket upgrades (a round's card, a match, chat).
public struct LiveRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The socket's connection, to cut one whose device stopped reading: a write to it waits for
    /// room in the connection's buffers, so closing the socket politely would wait for ever too.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.channel = source.channel
        // Every connection to a live router is a link from the gateway, watched by keepalive.
        LiveSockets.watch(source.channel)
    }
}
