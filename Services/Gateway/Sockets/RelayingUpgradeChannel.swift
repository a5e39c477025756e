import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import ServiceHTTP

/// The gateway's connections: HTTP/1.1, or a WebSocket that `SocketRelay` joins to a module's.
///
/// Hummingbird's `HTTP1WebSocketUpgradeChannel` sets a connection up the same way (NIO's upgrader,
/// then Hummingbird's HTTP handling when there is no upgrade) but hands an upgraded one to an async
/// handler with streams of frames; here the upgrade installs the relay's handlers instead, and the
/// connection's task only waits for it to close.
struct RelayingUpgradeChannel: ServerChildChannel, HTTPChannelHandler {
    /// Headers for the upgrade's answer and the relay to a module that accepted the socket; nil when
    /// the upgrade was refused (and answered, `UpgradeRefusal`).
    typealias Decision = @Sendable (HTTPRequest, any Channel, Logger) async -> (HTTPFields, NIOLoopBound<SocketRelay>)?

    enum Upgrade: Sendable {
        case relayed(NIOLoopBound<SocketRelay>)
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case failed(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgrade: EventLoopFuture<Upgrade>
        let channel: any Channel
    }

    let responder: Responder
    let additionalChannelHandlers: @Sendable () -> [any RemovableChannelHandler]
    let decide: Decision

    init(
        responder: @escaping Responder, additionalChannelHandlers: @escaping @Sendable () -> [any RemovableChannelHandler],
        decide: @escaping Decision
    ) {
        self.responder = Self.redirectingLateUpgrades(responder)
        self.additionalChannelHandlers = additionalChannelHandlers
        self.decide = decide
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let accepted = NIOLoopBoundBox<NIOLoopBound<SocketRelay>?>(nil, eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                maxFrameSize: SocketRelay.maxFrameSize,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    return channel.eventLoop.makeFutureWithTask { () -> (HTTPFields, NIOLoopBound<SocketRelay>)? in
                        guard let request = try? HTTPRequest(head, secure: false, splitCookie: false) else { return nil }
                        return await decide(request, channel, logger)
                    }.map { decision -> HTTPHeaders? in
                        guard let decision else { return nil }
                        accepted.value = decision.1
                        return HTTPHeaders(decision.0)
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let relay = accepted.value else { throw ChannelError.inappropriateOperationForState }
                        try relay.value.attach(device: channel)
                        return .relayed(relay)
                    }
                })
            let plainHTTP = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        // The additional handlers (the gateway's relay) take NIO's HTTP/1 parts; only what
                        // they pass on is converted to swift-http-types for Hummingbird.
                        try pipeline.addHandlers(additionalChannelHandlers())
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? .failed(http) : .notUpgraded(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration(upgradeConfiguration: plainHTTP)
            // As Hummingbird's: pipelining is NIOAsyncChannel's, errors and header checks Hummingbird's.
            configuration.enablePipelining = false
            configuration.enableErrorHandling = false
            configuration.enableResponseHeaderValidation = false
            let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(upgrade: upgrade, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgrade.get() {
            case .notUpgraded(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .failed(let http):
                // Refused: the device has had its answer (`UpgradeRefusal`) and this one is dropped; an
                // upgrade whose head could not be read as a request gets this bare 400.
                try? await http.executeThenClose { _, outbound in
                    try await outbound.write(
                        contentsOf: [
                            .head(HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])), .end(nil),
                        ])
                }
            case .relayed(let relay):
                await LiveSockets.serve(value.channel, outbound: RelayedSocket(relay: relay)) {
                    try? await value.channel.closeFuture.get()
                }
            }
        } catch {
            logger.debug("connection ended before it was set up: \(error)")
        }
    }

    /// An upgrade asked for on a connection that already carried a request (NIO upgrades only a
    /// connection's first) is answered with a redirect to the same path and a close, so the client
    /// asks again on a fresh connection, as Hummingbird's upgrade channel does.
    private static func redirectingLateUpgrades(_ responder: @escaping Responder) -> Responder {
        struct Redirected: Error {}
        return { request, writer, channel in
            guard request.headers.value(of: .upgrade) == "websocket" else { return try await responder(request, writer, channel) }
            let path = request.uri.path + (request.uri.query.map { "?\($0)" } ?? "")
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: path]))
            throw Redirected()
        }
    }
}
