import Contracts
import NIOConcurrencyHelpers
import NIOCore
import ServiceHTTP

/// How many connections each client address holds open at the gateway, at most `limit` at once (as
/// nginx's `limit_conn`): the next is answered 429 and closed. Kept per gateway instance, like the rate
/// limit. Without it one address could hold as many connections as the process has descriptors.
final class ClientConnections: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts a new connection from `client`; false, counting nothing, when it already holds `limit`.
    func admit(_ client: String) -> Bool {
        open.withLockedValue { open in
            let held = open[client, default: 0]
            guard held < limit else { return false }
            open[client] = held + 1
            return true
        }
    }

    func release(_ client: String) {
        open.withLockedValue { open in
            let held = open[client, default: 1] - 1
            open[client] = held > 0 ? held : nil
        }
    }

    func count(of client: String) -> Int { open.withLockedValue { $0[client, default: 0] } }
}

/// The first handler of a gateway connection: it admits the connection against its address's limit
/// (`ClientConnections`), or answers 429 and closes it, and gives its place back when it ends.
final class ConnectionLimitHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let connections: ClientConnections
    private let proxies: TrustedProxies
    private var admitted: String?

    init(connections: ClientConnections, proxies: TrustedProxies) {
        self.connections = connections
        self.proxies = proxies
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection's bytes go nowhere: it is closing.
        guard admitted != nil else { return }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func admit(context: ChannelHandlerContext) {
        guard admitted == nil else { return }
        let client = context.channel.remoteAddress?.ipAddress ?? "unknown"
        // A trusted proxy carries many clients' connections: it is not held to one client's number.
        guard proxies.contains(client) || connections.admit(client) else {
            let problem = Problem(
                .rateLimited, title: RawProblemResponse.reason(429),
                detail: localized("This address holds \(connections.limit) connections to the gateway already."))
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: RawProblemResponse.bytes(problem))))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        admitted = client
    }

    private func release() {
        guard let client = admitted else { return }
        admitted = nil
        connections.release(client)
    }
}
