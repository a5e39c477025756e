public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1

/// A server's connections, answering as plain HTTP a request that asks to switch to a protocol the
/// server does not switch to, then closing the connection — rather than answering nothing, or
/// answering and then never reading the connection again.
///
/// Clients send such requests unasked: `curl --http2` and Java's `HttpClient` offer `Upgrade: h2c`
/// on every first request over `http://`. NIO's HTTP decoder stops parsing after a request it takes
/// for an upgrade (`Connection: upgrade` with `Upgrade`, or `CONNECT`), so an answer that kept the
/// connection alive left the client's next request on it unread, waiting for ever. And on a server
/// that upgrades WebSockets, NIO's upgrade handler drops the request head when no upgrader takes the
/// request (apple/swift-nio#2632), so a first request offering h2c, or a WebSocket handshake without
/// its key, was answered with nothing at all and the connection closed. Here such a request loses
/// its `Upgrade` and says `Connection: close`, so it is answered as the server answers it without
/// one (426 `UPGRADE_REQUIRED` on a live path), and the connection ends there, as RFC 9110 §7.8
/// lets a server ignore an upgrade.
///
/// A well-formed WebSocket handshake on a server that takes them (`webSockets`) is left as it is.
///
/// An HTTP/1.0 request without keep-alive, whose connection ends after its answer (RFC 9112 §9.3),
/// is told `Connection: close` here too: Hummingbird reads only that field to close a connection (its
/// conversion to swift-http-types keeps no version), and held such a connection open after the answer.
public struct UpgradesNotMade<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base
    let webSockets: Bool

    public init(_ base: Base, webSockets: Bool) {
        self.base = base
        self.webSockets = webSockets
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard channel.eventLoop.inEventLoop else {
            return channel.eventLoop.flatSubmit { setup(channel: channel, logger: logger) }
        }
        let value = base.setup(channel: channel, logger: logger)
        do {
            try channel.pipeline.syncOperations.addAfterRequestDecoder(UpgradeRequests(webSockets: webSockets))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return value
    }

    public func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Changes the head of a request asking for an upgrade that will not be made, or of an HTTP/1.0
/// request without keep-alive, so that its connection closes after the answer (`UpgradesNotMade`).
final class UpgradeRequests: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let webSockets: Bool

    init(webSockets: Bool) { self.webSockets = webSockets }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        guard Self.asksToSwitch(head) else {
            guard !head.isKeepAlive, head.headers.value(of: "connection") != "close" else { return context.fireChannelRead(data) }
            head.headers.replaceOrAdd(name: "connection", value: "close")
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        if webSockets && Self.isWebSocketHandshake(head) {
            // Once upgraded, the connection carries frames, not HTTP parts; if the upgrade is refused
            // it closes. Either way nothing more here is HTTP to look at.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        head.headers.remove(name: "upgrade")
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Whether the request asks to leave HTTP/1.1 on this connection.
    static func asksToSwitch(_ head: HTTPRequestHead) -> Bool {
        head.method == .CONNECT || head.headers.contains(name: "upgrade")
    }

    /// What NIO's WebSocket upgrader needs to take a request (RFC 6455 §4.2.1): `Upgrade: websocket`,
    /// one `Sec-WebSocket-Key`, and version 13.
    static func isWebSocketHandshake(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET
            && head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
            && head.headers[canonicalForm: "sec-websocket-key"].count == 1
            && head.headers[canonicalForm: "sec-websocket-version"] == ["13"]
    }
}

extension HTTPServerBuilder {
    /// Hummingbird's HTTP/1.1 server with upgrades answered as plain HTTP (`UpgradesNotMade`): the
    /// server of every service without live sockets.
    public static func http1WithoutUpgrades() -> HTTPServerBuilder {
        .init { responder in UpgradesNotMade(HTTP1Channel(responder: responder, configuration: .init()), webSockets: false) }
    }
}

extension ChannelPipeline.SynchronousOperations {
    /// Adds `added` right after a server's HTTP/1.1 request decoder, where it sees each request head
    /// before anything else reads it, and each answer on its way out.
    public func addAfterRequestDecoder(_ added: any ChannelHandler) throws {
        let decoder = try handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        try addHandler(added, position: .after(decoder))
    }
}
