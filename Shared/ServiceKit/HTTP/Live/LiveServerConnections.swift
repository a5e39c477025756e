public import HummingbirdCore
public import Logging
public import NIOCore

/// The connections of a server that upgrades live sockets (`LiveSockets.server`, the gateway), set up
/// for what such a server holds: many idle sockets, and connections that may not have said yet
/// whether they are HTTP or a socket.
///
/// **A small first receive buffer.** NIO's starts at 2 KB, here at 1 KB. Each connection keeps the
/// buffer it was first read into for later reads, however idle it is, and grows it when a read fills
/// it: a live socket, whose first read is its upgrade request, then holds the smaller one. With it
/// chat held 29.7 KB per idle socket instead of 30.7 (`huddle-bench chat`, 10,000 sockets). Servers
/// without live sockets, whose connections are few and busy, would gain only a read more on a large
/// first request.
///
/// **Connections that have sent nothing are closed when the server begins to stop**, and every
/// connection still open when the stop's grace is over (the connection's task is cancelled). NIO's
/// WebSocket upgrade (under `HTTP1WebSocketUpgradeChannel`, and the gateway's
/// `RelayingUpgradeChannel`) learns from a connection's first request whether it is HTTP or a
/// socket, and until then hears neither the stop (NIO's quiesce event, on which plain HTTP
/// connections close when idle) nor the cancellation (it awaits a future). One
/// connection opened and left silent, such as an HTTP client's spare whose request had given up,
/// held chat's stop through its whole grace and past the cancellation, so chat was left behind: 9 s
/// to stop with one such connection and a 3 s grace, against 4 ms for auth, whose server does not
/// upgrade. A connection whose first request has begun is left to the server, which answers it.
public struct LiveServerConnections<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base

    public init(_ base: Base) { self.base = base }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.flatSubmit {
            do {
                try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: LiveSockets.receiveBuffers)
                try channel.pipeline.syncOperations.addHandler(ClosingUntilFirstByte(), position: .first)
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return base.setup(channel: channel, logger: logger)
        }
    }

    public func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        await withTaskCancellationHandler {
            await base.handle(value: value, logger: logger)
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}

/// Closes its connection on the server's quiesce event until the first bytes arrive, then leaves
/// the pipeline, so a connection in use costs nothing more.
final class ClosingUntilFirstByte: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
