public import Contracts
public import Hummingbird
public import HummingbirdCore
public import HummingbirdWebSocket
public import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How live sockets are served: the gateway's, which devices hold, and the services' behind it (a
/// round's card, a match, chat), which the gateway links them to.
///
/// Devices reach them only through the gateway, which pings each device (every 30 s,
/// `gateway.socket.ping.ms`) and closes its link to the service when the device goes. So the service's end does
/// not ping as well: auto-ping is a task per socket, 3 KB of an idle chat socket (41.6 KB without
/// it, 44.7 KB with it, `huddle-bench chat`). What the service must still notice is a gateway that
/// went without closing (its host lost): TCP keepalive does that in the kernel, with no task at all.
public enum LiveSockets {
    /// Keepalive probes a link this long idle, then every `probeInterval`; `probes` unanswered in a
    /// row end it: a vanished gateway's links are gone within about a minute.
    static let idleBeforeProbes: Int32 = 30
    static let probeInterval: Int32 = 10
    static let probes: Int32 = 3

    /// The receive buffers of a connection that holds a live socket, which keeps the buffer of its
    /// first read for later ones however idle it is: NIO's start at 2 KB, these at 1 KB (see
    /// `LiveServerConnections`; the gateway's links to modules start the same).
    public static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 65536)

    /// The WebSocket settings of a service's live router.
    static func configuration(maxFrameSize: Int) -> WebSocketServerConfiguration {
        .init(maxFrameSize: maxFrameSize, autoPing: .disabled)
    }

    /// The server of a service with live sockets: HTTP/1.1, upgrading to a WebSocket what `router`
    /// takes (other upgrades answered as plain HTTP, `UpgradesNotMade`), its connections set up as
    /// `LiveServerConnections`.
    public static func server<Router: HTTPResponderBuilder>(router: Router, maxFrameSize: Int) -> HTTPServerBuilder
    where Router.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            LiveServerConnections(
                UpgradesNotMade(
                    HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: configuration(maxFrameSize: maxFrameSize)),
                    webSockets: true))
        }
    }

    /// How long a device has, once the service is stopping, to answer the close frame it was sent.
    public static let closeGrace = TimeAmount.seconds(5)

    /// Serves one live socket (`outbound` its writer) with `body`, counted among the instance's
    /// `OpenSockets`, which are sent 1001 when shutdown begins. The device should answer that close
    /// frame, but one that stopped reading never does, and held the service's shutdown for ever: so
    /// once the server itself stops, its connection is reset after `closeGrace`.
    /// `session`: the session the socket was opened with, whose end closes it.
    public static func serve(
        _ channel: any Channel, outbound: any LiveSocketEnd, session: SessionID? = nil, _ body: () async throws -> Void
    ) async rethrows {
        try await OpenSockets.holding(outbound, session: session) {
            try await withGracefulShutdownHandler {
                try await body()
            } onGracefulShutdown: {
                channel.eventLoop.scheduleTask(in: closeGrace) { reset(channel) }
            }
        }
    }

    /// What to call when a device stops taking what its socket is sent: its connection is reset after
    /// `drain`, unless it ended by then. Its writes wait for room in a connection it does not read, so
    /// a polite close would wait behind them for ever.
    public static func cutOff(_ channel: any Channel, after drain: TimeAmount) -> @Sendable () -> Void {
        { channel.eventLoop.scheduleTask(in: drain) { reset(channel) } }
    }

    /// Ends a connection at once with a reset (SO_LINGER 0), which frees the kernel's buffers too.
    public static func reset(_ channel: any Channel) {
        guard channel.isActive else { return }
        guard let socket = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Turns keepalive on for a live socket's connection: a live router's (see `LiveSockets`), and the
    /// gateway's link to one, which notices the same way a service whose host was lost.
    public static func watch(_ channel: any Channel) {
        func tcp(_ name: Int32) -> ChannelOptions.Types.SocketOption {
            .init(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
        }
        #if os(Linux)
            let idle = tcp(Int32(TCP_KEEPIDLE)), interval = tcp(Int32(TCP_KEEPINTVL)), count = tcp(Int32(TCP_KEEPCNT))
        #else
            let idle = tcp(Int32(TCP_KEEPALIVE)), interval = tcp(Int32(TCP_KEEPINTVL)), count = tcp(Int32(TCP_KEEPCNT))
        #endif
        channel.setOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .flatMap { channel.setOption(idle, value: SocketOptionValue(idleBeforeProbes)) }
            .flatMap { channel.setOption(interval, value: SocketOptionValue(probeInterval)) }
            .flatMap { channel.setOption(count, value: SocketOptionValue(probes)) }
            // Fails only for a connection already closed, which has nothing left to watch.
            .whenFailure { _ in }
    }
}
