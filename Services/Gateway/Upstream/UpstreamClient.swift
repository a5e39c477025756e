import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The gateway's HTTP/1.1 client for its modules. Keep-alive connections are pooled per module;
/// a request takes one of the event loop it runs on when there is one, so it stays on its loop.
///
/// A general-purpose client (AsyncHTTPClient) does per request what a proxy to a few internal
/// `http://host:port` addresses does not need: URL parsing, header validation, redirect and
/// cancellation bookkeeping, a pool state machine. On the gateway benchmark that work was most of
/// the gateway's cost per request; this client does only the exchange.
final class UpstreamClient: Service, Sendable {
    private let group: any EventLoopGroup
    let connectTimeout: TimeAmount
    /// A connection this old is closed: at that age if it sits in the pool, else when it comes
    /// free. The connections to a module are opened anew every so often and reach its new instances
    /// (pods started by a rollout or an autoscaler get traffic within this long), and none is kept
    /// idle for longer. One timer a connection, set when it opens: an `IdleStateHandler` made a
    /// promise and a callback for every write of every request (3.5 % of the gateway's CPU at one
    /// connection, perf).
    private let maximumAge: TimeAmount
    private let pool = NIOLockedValueBox(Pool())
    /// Idle connections kept per module; more are closed when they come free.
    static let idleLimit = 256
    /// Largest body, either way, moved whole (a request's goes out with its head in one write, an
    /// answer's is read before it is handed on); larger ones, or those of unknown size, stream.
    static let wholeBodyLimit = 64 * 1024

    private struct Pool {
        /// By module base URL, most recently used last.
        var idle: [String: [UpstreamConnection]] = [:]
        var isShutDown = false

        mutating func take(_ base: String, preferring loop: any EventLoop) -> UpstreamConnection? {
            guard let connections = idle[base], !connections.isEmpty else { return nil }
            let index = connections.lastIndex { $0.channel.eventLoop === loop } ?? connections.index(before: connections.endIndex)
            return idle[base]?.remove(at: index)
        }
    }

    init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, connectTimeout: Duration, maximumAge: Duration = .seconds(30)) {
        self.group = group
        self.connectTimeout = TimeAmount(connectTimeout)
        self.maximumAge = TimeAmount(maximumAge)
    }

    /// Sends a request whose body, if any, is at hand, on a connection of `loop` when one is pooled. A
    /// request that finds its pooled connection closed by the module goes out again on a fresh one
    /// when that cannot do harm: when nothing was sent, or when its method is idempotent. Fails with
    /// an `UpstreamFailure`.
    func send(_ request: HTTPRequestHead, body: ByteBuffer?, to base: String, deadline: NIODeadline, on loop: any EventLoop)
        -> EventLoopFuture<UpstreamResponse>
    {
        @Sendable func attempt(mayResend: Bool) -> EventLoopFuture<UpstreamResponse> {
            @Sendable func exchange(on connection: UpstreamConnection, reused: Bool) -> EventLoopFuture<UpstreamResponse> {
                connection.start(request, body: body, isComplete: true, deadline: deadline).flatMapError { error in
                    switch error {
                    case UpstreamFailure.stale where reused:
                        attempt(mayResend: mayResend)
                    case UpstreamFailure.closed(beforeResponse: true) where reused && mayResend:
                        attempt(mayResend: false)
                    default:
                        loop.makeFailedFuture(error)
                    }
                }
            }
            // A pooled connection is used at once, not through a future of it: two futures fewer
            // on nearly every request.
            switch takePooled(base, on: loop) {
            case .success(let pooled?): return exchange(on: pooled, reused: true)
            case .success(nil): return connect(base, on: loop).flatMap { exchange(on: $0, reused: false) }
            case .failure(let error): return loop.makeFailedFuture(error)
            }
        }
        return attempt(mayResend: request.method.isIdempotent)
    }

    /// Sends a request whose body streams from `body`, on a fresh connection (a pooled one could
    /// turn out closed after part of the body was taken). If the module answers and closes before
    /// taking the whole body, its answer is returned.
    func send(
        _ request: HTTPRequestHead, streaming body: some AsyncSequence<ByteBuffer, any Error>, to base: String, deadline: NIODeadline
    ) async throws -> UpstreamResponse {
        let connection = try await connect(base, on: MultiThreadedEventLoopGroup.currentEventLoop ?? group.any()).get()
        let answer = connection.start(request, body: nil, isComplete: false, deadline: deadline)
        do {
            var delivered = true
            for try await chunk in body {
                delivered = await connection.write(.body(.byteBuffer(chunk)))
                if !delivered { break }
            }
            if delivered { _ = await connection.write(.end(nil)) }
        } catch {
            // The body failed (too large, or the client went away): the request is cut short.
            connection.channel.close(promise: nil)
            throw error
        }
        do {
            return try await answer.get()
        } catch UpstreamFailure.stale {
            throw UpstreamFailure.closed(beforeResponse: true)
        }
    }

    /// The event loop a request sent from here should use: the one it runs on, when it runs on one.
    func loopForCaller() -> any EventLoop { MultiThreadedEventLoopGroup.currentEventLoop ?? group.any() }

    /// An idle connection to `base`, of `loop` when there is one; nil when none is pooled.
    private func takePooled(_ base: String, on loop: any EventLoop) -> Result<UpstreamConnection?, UpstreamFailure> {
        pool.withLockedValue { pool in
            guard !pool.isShutDown else { return .failure(.unreachable) }
            return .success(pool.take(base, preferring: loop))
        }
    }

    private func connect(_ base: String, on loop: any EventLoop) -> EventLoopFuture<UpstreamConnection> {
        guard let address = URL(string: base), address.scheme == "http", let host = address.host() else {
            return loop.makeFailedFuture(UpstreamFailure.unreachable)
        }
        let port = address.port ?? 80
        return ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    // Header values come from NIO's request decoder or from HTTPFields, neither of which
                    // holds characters HTTP/1 forbids.
                    try pipeline.addHTTPClientHandlers(enableOutboundHeaderValidation: false)
                    try pipeline.addHandler(UpstreamExchangeHandler(eventLoop: channel.eventLoop))
                }
            }
            .connect(host: host, port: port)
            .flatMapErrorThrowing { _ in throw UpstreamFailure.unreachable }
            .flatMapThrowing { [self] channel in
                let handler = try channel.pipeline.syncOperations.handler(type: UpstreamExchangeHandler.self)
                let connection = UpstreamConnection(
                    channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), authority: "\(host):\(port)",
                    retiresAt: .now() + maximumAge)
                handler.whenIdle = { self.release(connection, base: base) }
                handler.whenClosed = { self.forget(connection, base: base) }
                handler.retire(at: connection.retiresAt)
                return connection
            }
    }

    private func release(_ connection: UpstreamConnection, base: String) {
        let kept = pool.withLockedValue { pool in
            let young = connection.retiresAt > NIODeadline.now()
            guard !pool.isShutDown, young, pool.idle[base, default: []].count < Self.idleLimit else { return false }
            pool.idle[base, default: []].append(connection)
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    private func forget(_ connection: UpstreamConnection, base: String) {
        pool.withLockedValue { $0.idle[base]?.removeAll { $0.channel === connection.channel } }
    }

    /// Runs until the service group shuts down, then closes every idle connection; connections in
    /// use close when their exchange ends.
    func run() async throws {
        try? await gracefulShutdown()
        let idle = pool.withLockedValue { pool in
            pool.isShutDown = true
            defer { pool.idle = [:] }
            return pool.idle.values.joined()
        }
        for connection in idle { connection.channel.close(promise: nil) }
    }
}

/// A pooled connection: its channel and, on the channel's event loop, its exchange handler.
struct UpstreamConnection: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<UpstreamExchangeHandler>
    /// `host:port`, sent as the Host header.
    let authority: String
    /// When it is closed, or no longer pooled if in use then (`UpstreamClient.maximumAge`).
    let retiresAt: NIODeadline

    func start(_ request: HTTPRequestHead, body: ByteBuffer?, isComplete: Bool, deadline: NIODeadline) -> EventLoopFuture<UpstreamResponse>
    {
        var request = request
        request.headers.replaceOrAdd(name: "Host", value: authority)
        guard channel.eventLoop.inEventLoop else {
            return channel.eventLoop.flatSubmit { [request, handler] in
                handler.value.start(request, body: body, isComplete: isComplete, deadline: deadline)
            }
        }
        return handler.value.start(request, body: body, isComplete: isComplete, deadline: deadline)
    }

    /// Writes part of a streamed request; false once the connection can take no more.
    func write(_ part: HTTPClientRequestPart) async -> Bool {
        do {
            try await channel.writeAndFlush(part).get()
            return true
        } catch {
            return false
        }
    }
}

extension HTTPMethod {
    /// Methods whose repetition has the same effect as one request (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .GET, .HEAD, .PUT, .DELETE, .OPTIONS, .TRACE: true
        default: false
        }
    }
}
