import Contracts
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceHTTP

/// How large and how slow a request head may be at the gateway (`gateway.head.*`).
struct RequestHeadLimits: Sendable, Equatable {
    /// Longest request line (method, path with query, version) in bytes: longer is a 414.
    var requestLine: Int
    /// Longest whole head in bytes: longer is a 431.
    var head: Int
    /// How long a head may take to arrive, from its first byte (or from the connection's opening
    /// for the first): later is a 408, and the connection is closed.
    var timeout: TimeAmount

    init(requestLine: Int = 8192, head: Int = 32768, timeout: TimeAmount = .seconds(10)) {
        self.requestLine = requestLine
        self.head = head
        self.timeout = timeout
    }
}

/// The first handler of a gateway connection: it watches the bytes of each request head (see
/// `RequestHeadScanner`) and answers a head that is too long or too slow itself, closing the
/// connection, before anything parses it. One that is merely unreadable is refused the same way by
/// `HeadParseFailureHandler`, which the HTTP decoder's errors reach.
///
/// Without it a head of more than 80 KB made the HTTP decoder fail inside the WebSocket upgrade
/// pipeline, where nothing answered: the client waited, the connection stayed open.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var scanner: RequestHeadScanner
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var answered = false

    init(limits: RequestHeadLimits) {
        scanner = RequestHeadScanner(limits: .init(requestLine: limits.requestLine, head: limits.head))
        timeout = limits.timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armDeadline(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armDeadline(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        let bytes = unwrapInboundIn(data)
        let headsBefore = scanner.headsSeen
        scanner.consume(bytes.readableBytesView)
        switch scanner.progress {
        case .refused(.requestLineTooLong):
            return refuse(.uriTooLong, "The request line is longer than \(scanner.limits.requestLine) bytes.", context: context)
        case .refused(.headTooLarge):
            return refuse(
                .headerFieldsTooLarge, "The request head is longer than \(scanner.limits.head) bytes.", context: context)
        case .inHead:
            if scanner.headsSeen != headsBefore { disarmDeadline() }
            if deadline == nil { armDeadline(context: context) }
        case .betweenRequests, .afterHead, .stopped:
            if scanner.headsSeen != headsBefore { disarmDeadline() }
        }
        context.fireChannelRead(data)
    }

    /// Answers `kind` with a problem, then closes the connection once it is written.
    func refuse(_ kind: ProblemCode, _ detail: String, context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        disarmDeadline()
        let response = RawProblemResponse.bytes(Problem(kind, title: RawProblemResponse.reason(kind.status), detail: detail))
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: response))).assumeIsolated()
            .whenComplete { _ in
                // Said as the client's end of the input first: a connection still negotiating an upgrade
                // then ends quietly, where a bare close made the WebSocket server log an error for each.
                context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
                context.close(promise: nil)
            }
    }

    /// `refuse`, asked from a handler further along `context`'s pipeline: once the requests read before
    /// this one have their answers (`ModuleRelay.refuseAfterEarlierAnswers`), or at once before the
    /// connection is known to be HTTP, when no relay is there and nothing came before.
    func refuseInTurn(_ kind: ProblemCode, _ detail: String, from context: ChannelHandlerContext) {
        guard let guardContext = try? context.pipeline.syncOperations.context(handler: self) else { return context.close(promise: nil) }
        let refusal = { self.refuse(kind, detail, context: guardContext) }
        if let relay = try? context.pipeline.syncOperations.handler(type: ModuleRelay.self) {
            relay.refuseAfterEarlierAnswers(refusal)
        } else {
            refusal()
        }
    }

    private func armDeadline(context: ChannelHandlerContext) {
        guard deadline == nil, !answered else { return }
        let timeout = timeout
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            deadline = nil
            switch scanner.progress {
            case .inHead,
                .betweenRequests where scanner.headsSeen == 0:
                refuse(.requestTimeout, "The request head did not arrive within \(timeout.nanoseconds / 1_000_000) ms.", context: context)
            default:
                break
            }
        }
    }

    private func disarmDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}

/// The last handler of a gateway connection before it is known to be HTTP or a WebSocket: the HTTP
/// decoder's errors reach it, and it has the guard answer them once the requests before are answered
/// (`ModuleRelay.refuseAfterEarlierAnswers`). The WebSocket upgrade pipeline lets them fall off its
/// end, leaving the client waiting.
final class HeadParseFailureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let headGuard: RequestHeadGuard

    init(headGuard: RequestHeadGuard) {
        self.headGuard = headGuard
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parse = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        // Requests read before this one are answered first.
        if parse == .headerOverflow {
            headGuard.refuseInTurn(.headerFieldsTooLarge, "The request head is too large.", from: context)
        } else {
            headGuard.refuseInTurn(.malformedRequest, "The request is not HTTP/1.1 the gateway can read.", from: context)
        }
    }
}

/// A problem written as a whole HTTP/1.1 response, for answers given below the router.
enum RawProblemResponse {
    static func bytes(_ problem: Problem) -> [UInt8] {
        let body = (try? HuddleJSON.encoder.encode(problem)) ?? Data()
        let head =
            "HTTP/1.1 \(problem.status) \(reason(problem.status))\r\n"
            + "Content-Type: \(Problem.mediaType)\r\nContent-Length: \(body.count)\r\n"
            + "X-Request-Id: \(RequestIDMiddleware.requestID(for: [:]))\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }

    static func reason(_ status: Int) -> String {
        HTTPResponseStatus(statusCode: status).reasonPhrase
    }
}

/// A server child channel with the head guard in front of another's pipeline.
struct HeadGuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let limits: RequestHeadLimits
    /// The gateway's body limit: a request expecting `100 Continue` with a longer body gets its 413 instead.
    let bodyLimit: Int
    /// How long a body may take once its head is in, the rate limit its request is charged to on
    /// arrival (`RequestBodyGuard`), and the connections each address may hold.
    let bodyTimeout: TimeAmount
    let edge: EdgePolicy
    let connections: ClientConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.flatSubmit { setUpOnItsLoop(channel: channel, logger: logger) }
    }

    /// The connection limit and the guard first; then the base's HTTP handlers, with
    /// `ContinueWhenExpected` and `RequestBodyGuard` right after the decoder; then the failure handler,
    /// last for now: the base's later handlers (once the connection is known to be HTTP or a WebSocket)
    /// go after it, where decoder errors no longer arrive.
    private func setUpOnItsLoop(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let headGuard = RequestHeadGuard(limits: limits)
        do {
            try channel.pipeline.syncOperations.addHandler(headGuard, position: .first)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionLimitHandler(connections: connections, proxies: edge.proxies), position: .first)
            let value = base.setup(channel: channel, logger: logger)
            try channel.pipeline.syncOperations.addAfterRequestDecoder(
                RequestBodyGuard(timeout: bodyTimeout, edge: edge, headGuard: headGuard))
            try channel.pipeline.syncOperations.addAfterRequestDecoder(ContinueWhenExpected(bodyLimit: bodyLimit))
            try channel.pipeline.syncOperations.addHandler(HeadParseFailureHandler(headGuard: headGuard))
            return value
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // The connection is handled on its own loop (`EventLoopTaskExecutor`).
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}
