import Contracts
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import ServiceHTTP
import Tracing

/// How most requests pass through the gateway: one whose module its path names and whose body is at
/// hand (none, or a Content-Length within the limits) goes to the module and its answer comes back
/// in NIO handlers on the connection's event loop — no Hummingbird request, no task, no middleware.
/// It does for such a request what the middleware does (`ProxyMiddleware` and the router's
/// middleware: request id, rate limit, spans, metrics, the gateway's own problems), through the same
/// `ModuleCall`. Every other request — the gateway's own routes, streamed or chunked bodies, HEAD,
/// upgrades, `Connection: close`, HTTP/1.0 without keep-alive — goes on to the router, and answers
/// leave in the order their requests came: while a request is with the router, the next waits its
/// turn there too, and while one is relayed, what arrives after it waits here (and once something
/// waits, the connection is not read until it has its turn).
///
/// It also closes a connection that has sat for `idleTimeout` with no request under way and no answer
/// owed: without it a client could hold a connection, and a descriptor, for ever after one request.
///
/// Why: at one connection the gateway spent ~200 µs of CPU a request, ~110 µs of which Hummingbird
/// spends on any request (the operations listener's `/health/live`, measured alone), where nginx's
/// whole relay takes 66 µs (`huddle-bench gateway`, perf stat).
///
/// It sits below the conversion to swift-http-types (`HTTP1ToHTTPServerCodec`, which only what goes
/// to the router passes), and relays a request's and an answer's heads as NIO's HTTP/1 decoders made
/// them: converting each head to `HTTPRequest`/`HTTPResponse` and back, on both connections, was
/// 10.7 % of the gateway's user time at one connection (perf).
final class ModuleRelay: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the relay shares across connections.
    struct Settings: Sendable {
        let routes: RouteTable
        let call: ModuleCall
        let client: UpstreamClient
        let edge: EdgePolicy
        let meter: RequestMeter
        let bodyLimit: Int
        let timeout: Duration
        let idleTimeout: TimeAmount?
        let logger: Logger
    }

    private enum State {
        case idle
        /// A request to relay, its body arriving.
        case collecting(Relayed)
        /// Sent on to the module; its answer is not all written yet.
        case relaying
        /// A request going on to the router, until its end has gone on too.
        case passing
    }

    /// What arrived while a request was relayed, kept for after it.
    private enum Held {
        case part(HTTPServerRequestPart)
        case event(Any)
    }

    private let settings: Settings
    private var state = State.idle
    /// Requests handed to the router whose answers have not ended yet.
    private var routerOwes = 0
    private var held: [Held] = []
    private var replaying = false
    /// The channel asked to read while a request was relayed and another had arrived behind it.
    private var readWanted = false
    /// The server is shutting down: every request goes to the router, which closes the connection.
    private var quiescing = false
    /// The address the connection comes from, found once.
    private var knownPeerAddress: String?
    private var closed = false
    /// The refusal of a request the decoder could not read, waiting for the answers before it.
    private var refusalAfterAnswers: (() -> Void)?
    /// When the connection's quiet (nothing under way) will have lasted `idleTimeout`, and it is
    /// closed; none while a request is under way.
    private var quietEnds: MovingDeadline?

    init(_ settings: Settings) { self.settings = settings }

    func handlerAdded(context: ChannelHandlerContext) {
        quietEnds = MovingDeadline(on: context.eventLoop) { [weak context] in context?.close(promise: nil) }
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        quietEnds?.move(to: nil)
        if case .relaying = state { return held.append(.part(part)) }
        take(part, context: context)
    }

    private func take(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        guard !closed else { return }
        switch (state, part) {
        case (.idle, .head(let head)):
            if routerOwes == 0, !quiescing, let relayed = Relayed(head, settings: settings) {
                state = .collecting(relayed)
            } else {
                routerOwes += 1
                state = .passing
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.collecting(var relayed), .body(let chunk)):
            state = .relaying  // lets `relayed` grow in place
            relayed.append(chunk)
            state = .collecting(relayed)
        case (.collecting(let relayed), .end):
            state = .relaying
            relay(relayed, context: context)
        case (.passing, .end):
            state = .idle
            context.fireChannelRead(wrapInboundOut(part))
            // The router may have answered before the request ended.
            closeWhenIdle(context: context)
        case (.passing, _):
            context.fireChannelRead(wrapInboundOut(part))
        default:
            // The decoder never sends parts out of order; anything else cannot be trusted.
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        // The router hears of a shutdown or a closed input only once a relayed answer is out: it would
        // close the connection under it.
        switch state {
        case .collecting, .relaying: held.append(.event(event))
        case .idle, .passing: context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Nothing waiting can be answered any more.
        held = []
        closed = true
        refusalAfterAnswers = nil
        quietEnds?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        quietEnds?.cancel()
    }

    /// Once nothing is under way (no request relayed or with the router, nothing held back), the
    /// connection is closed after `idleTimeout` unless a request arrives first.
    private func closeWhenIdle(context: ChannelHandlerContext) {
        guard let timeout = settings.idleTimeout, case .idle = state, routerOwes == 0, held.isEmpty, !closed else { return }
        quietEnds?.move(to: context.eventLoop.now + timeout)
    }

    /// The connection is read while a request is relayed, and stops being read only once something
    /// has arrived behind it: a client holds back at most one read's worth. Why not stop at once: a
    /// socket that stops being read and starts again is taken out of epoll's interest and put back,
    /// two `epoll_ctl` calls for every request when most connections never send a second request
    /// before the first is answered (strace over the gateway at one connection: 2.0 a request).
    func read(context: ChannelHandlerContext) {
        if waitsForAnswer {
            readWanted = true
        } else {
            context.read()
        }
    }

    /// A request is relayed and what came after it is held for its turn.
    private var waitsForAnswer: Bool {
        if case .relaying = state { !held.isEmpty } else { false }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only the router's answers come this way; the relay writes below this handler.
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        routerOwes = max(0, routerOwes - 1)
        context.write(data, promise: promise)
        refuseIfAnswered()
        closeWhenIdle(context: context)
    }

    /// Runs `refusal` (the head guard's 400 and close) once every request that arrived before the one
    /// the decoder failed on has its answer written, relayed or from the router: a malformed request
    /// pipelined behind others is refused after their answers, as the modules do, instead of in their
    /// place.
    func refuseAfterEarlierAnswers(_ refusal: @escaping () -> Void) {
        refusalAfterAnswers = refusal
        refuseIfAnswered()
    }

    private func refuseIfAnswered() {
        guard let refusal = refusalAfterAnswers else { return }
        switch state {
        case .relaying: return
        // The rest of this request will not come: it is the one the decoder failed on.
        case .collecting: break
        case .passing: guard held.isEmpty, routerOwes <= 1 else { return }
        case .idle: guard held.isEmpty, routerOwes == 0 else { return }
        }
        refusalAfterAnswers = nil
        refusal()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { resumeReading(context: context) }
        context.fireChannelWritabilityChanged()
    }

    /// The relayed answer is out: what waited is taken in order, and reading resumes.
    private func relayFinished(context: ChannelHandlerContext) {
        state = .idle
        guard !replaying else { return }
        replaying = true
        defer { replaying = false }
        var passedOn = false
        replay: while let next = held.first {
            switch (next, state) {
            case (_, .relaying), (.event, .collecting):
                // The next relayed request has begun; the rest waits for its answer.
                break replay
            case (.part(let part), _):
                held.removeFirst()
                take(part, context: context)
                if case .relaying = state {} else { passedOn = true }
            case (.event(let event), _):
                held.removeFirst()
                context.fireUserInboundEventTriggered(event)
            }
        }
        // What went on to the router reaches it at the end of a read, as from the socket.
        if passedOn { context.fireChannelReadComplete() }
        resumeReading(context: context)
        refuseIfAnswered()
        closeWhenIdle(context: context)
    }

    private func resumeReading(context: ChannelHandlerContext) {
        guard readWanted, context.channel.isWritable, !waitsForAnswer else { return }
        readWanted = false
        context.read()
    }

    // MARK: Relaying

    private func relay(_ relayed: Relayed, context: ChannelHandlerContext) {
        let settings = settings
        let started = settings.meter.started(relayed.method)
        let requestID = EdgePolicy.requestID(headers: relayed.head.headers)
        let logger: @Sendable () -> Logger = { [logger = settings.logger] in
            var logger = logger
            logger[metadataKey: "request_id"] = .string(requestID)
            return logger
        }
        // Per request: a trusted proxy's connection carries many clients' requests.
        let (clientAddress, forwardedFor) = settings.edge.client(peer: peerAddress(context), headers: relayed.head.headers)
        let trace = RelayTrace(relayed.head, route: relayed.route, path: relayed.path)
        let finish = Finish(relay: self, context: context, relayed: relayed, requestID: requestID, started: started, trace: trace)

        if !EdgePolicy.chargedAtHead(
            contentLength: relayed.head.headers.first(name: "content-length"),
            transferEncoding: relayed.head.headers.first(name: "transfer-encoding")),
            let refusal = settings.edge.refusal(of: clientAddress)
        {
            return finish.problem(refusal)
        }
        trace.callStarts(relayed.head.method)
        var head = HTTPRequestHead(version: .http1_1, method: relayed.head.method, uri: relayed.head.uri)
        head.headers = HopByHop.upstreamHeaders(
            relayed.head.headers, requestID: requestID, trace: trace.upstreamContext, forwardedFor: forwardedFor)
        if relayed.hasBody { head.headers.add(name: "Content-Length", value: String(relayed.body?.readableBytes ?? 0)) }
        let (client, body, loop) = (settings.client, relayed.body, context.eventLoop)
        let deadline = NIODeadline.now() + TimeAmount(settings.timeout)
        settings.call.send(to: relayed.route.module, on: loop, logger: logger) { [head] base in
            client.send(head, body: body, to: base, deadline: deadline, on: loop)
        }.hop(to: loop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let answer): finish.answer(answer)
            case .failure(let error): finish.problem(error)
            }
        }
    }

    private func peerAddress(_ context: ChannelHandlerContext) -> String {
        if let knownPeerAddress { return knownPeerAddress }
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        knownPeerAddress = address
        return address
    }

    /// Writes a relayed request's answer, and finishes its metrics and spans.
    private struct Finish {
        let relay: ModuleRelay
        let context: ChannelHandlerContext
        let relayed: Relayed
        let requestID: String
        let started: RequestMeter.Started
        let trace: RelayTrace

        func answer(_ answer: UpstreamResponse) {
            let status = answer.head.status.code
            var headers = HopByHop.returnable(answer.head.headers)
            headers.replaceOrAdd(name: "X-Request-Id", value: requestID)
            trace.moduleAnswered(Int(status))
            trace.answered(Int(status), headers: &headers)
            var head = HTTPResponseHead(version: .http1_1, status: answer.head.status, headers: headers)
            switch answer.body {
            case .whole(let body):
                head.headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
                write(head, body: body)
                done(status: Int(status))
            case .stream(let stream):
                relay.stream(head, body: stream, context: context) { done(status: Int(status)) }
            }
        }

        func problem(_ error: any Error) {
            let problemError = error as? any ProblemError ?? GatewayError.upstreamUnavailable(relayed.route.module)
            let problem = problemError.problem
            trace.callFailed(error)
            guard case (let fields, let body)? = try? ProblemResponse.parts(problem, headers: problemError.headers, traceID: trace.traceID)
            else { return context.close(promise: nil) }
            var headers = HTTPHeaders(fields)
            headers.add(name: "X-Request-Id", value: requestID)
            trace.answered(problem.status, headers: &headers)
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            write(HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: problem.status), headers: headers), body: body)
            relay.settings.meter.failed(started, route: relayed.route.route, method: relayed.method, status: problem.status)
            trace.end()
            relay.relayFinished(context: context)
        }

        private func write(_ head: HTTPResponseHead, body: ByteBuffer) {
            context.write(relay.wrapOutboundOut(.head(head)), promise: nil)
            if body.readableBytes > 0 { context.write(relay.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(relay.wrapOutboundOut(.end(nil)), promise: nil)
        }

        private func done(status: Int) {
            relay.settings.meter.answered(started, route: relayed.route.route, method: relayed.method, status: status)
            trace.end()
            relay.relayFinished(context: context)
        }
    }

    /// Writes an answer whose body streams from the module, each piece once the last is written, so a
    /// slow client slows the module's connection rather than filling the gateway's memory.
    private func stream(
        _ head: HTTPResponseHead, body: UpstreamBodyStream, context: ChannelHandlerContext, whenDone: @escaping () -> Void
    ) {
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context, whenDone), eventLoop: loop)
        Task {
            let ended: Bool
            do {
                for try await chunk in body {
                    try await loop.flatSubmit {
                        bound.value.1.writeAndFlush(bound.value.0.wrapOutboundOut(.body(.byteBuffer(chunk))))
                    }.get()
                }
                ended = true
            } catch {
                ended = false
            }
            loop.execute {
                let (relay, context, whenDone) = bound.value
                if ended {
                    context.writeAndFlush(relay.wrapOutboundOut(.end(nil)), promise: nil)
                } else {
                    // The module's answer broke off: the client must not take it for whole.
                    context.close(promise: nil)
                }
                whenDone()
            }
        }
    }
}

/// A request the relay takes: its head, route and body as it arrives.
private struct Relayed {
    let head: HTTPRequestHead
    /// Its method as the request metrics name it.
    let method: HTTPRequest.Method
    let route: RouteTable.Entry
    let path: String
    /// Whether the client sent a Content-Length (its body may be empty).
    let hasBody: Bool
    private(set) var body: ByteBuffer?

    /// Nil for a request the router must answer.
    init?(_ head: HTTPRequestHead, settings: ModuleRelay.Settings) {
        guard head.method != .HEAD, head.method != .CONNECT, head.uri.hasPrefix("/"), head.isKeepAlive,
            let method = try? HTTPRequest.Method(head.method)
        else { return nil }
        let fields = head.headers
        guard !fields.contains(name: "upgrade"), !fields.contains(name: "expect"), !fields.contains(name: "transfer-encoding")
        else { return nil }
        let lengths = fields["content-length"]
        guard lengths.count <= 1 else { return nil }
        let length = lengths.first.map { Int($0) } ?? 0
        guard let length, length >= 0, length <= min(settings.bodyLimit, UpstreamClient.wholeBodyLimit) else { return nil }
        // A GET's or HEAD's body goes nowhere (`OutgoingBody.sentWithoutBody`): the router drops it.
        guard length == 0 || !OutgoingBody.sentWithoutBody.contains(method) else { return nil }
        let path = URI(head.uri).path
        guard !RouteTable.isInternal(path), let route = settings.routes.entry(for: path) else { return nil }
        self.head = head
        self.method = method
        self.route = route
        self.path = path
        self.hasBody = !lengths.isEmpty
    }

    mutating func append(_ chunk: ByteBuffer) {
        if body == nil { body = chunk } else { body!.writeImmutableBuffer(chunk) }
    }
}
