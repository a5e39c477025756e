import NIOCore
import NIOHTTP1
import ServiceHTTP

/// The gateway's end of one keep-alive connection to a module: sends a request, hands back the
/// answer, and tells the pool when the connection is free again or gone. It lives on its
/// channel's event loop and carries one exchange at a time.
final class UpstreamExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    private enum State {
        case idle
        case awaitingHead(EventLoopPromise<UpstreamResponse>)
        case collecting(EventLoopPromise<UpstreamResponse>, HTTPResponseHead, ByteBuffer?)
        case streaming(UpstreamBodyStream.Source)
        /// The whole answer has arrived; the request's body may still be going out.
        case answered
        case closed
    }

    /// Identifies one exchange to a streamed body's reader, which may stop after the connection
    /// has moved on to the next exchange.
    struct ExchangeReference: Sendable {
        let handler: NIOLoopBound<UpstreamExchangeHandler>
        let number: Int

        func readerStopped() { handler.value.readerStopped(exchange: number) }
    }

    private var state = State.idle
    private var requestSent = true
    private var reusable = true
    /// Reading was paused for a streamed answer's slow reader; the next exchange needs it back on.
    private var readingPaused = false
    private var exchangeNumber = 0
    /// When the exchange under way must have its answer by: none once it has, or while a streamed
    /// answer arrives.
    private lazy var answerDue = MovingDeadline(on: eventLoop) { [weak self] in self?.deadlinePassed() }
    private var retirement: Scheduled<Void>?
    private var context: ChannelHandlerContext?
    private let eventLoop: any EventLoop
    /// Set by the pool: called on the event loop when the connection can take the next exchange,
    /// and when it has closed.
    var whenIdle: (() -> Void)?
    var whenClosed: (() -> Void)?

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    /// Sends `head`, and `body` when the whole request is at hand (`isComplete`). A streamed
    /// request's body and end are written after this, through the channel. The future holds the
    /// answer, or fails with an `UpstreamFailure`.
    func start(_ head: HTTPRequestHead, body: ByteBuffer?, isComplete: Bool, deadline: NIODeadline) -> EventLoopFuture<UpstreamResponse> {
        // A pooled connection can close between being taken from the pool and this call.
        guard let context, case .idle = state else { return eventLoop.makeFailedFuture(UpstreamFailure.stale) }
        let promise = context.eventLoop.makePromise(of: UpstreamResponse.self)
        exchangeNumber &+= 1
        state = .awaitingHead(promise)
        reusable = true
        requestSent = isComplete
        answerDue.move(to: deadline)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        if isComplete { context.write(wrapOutboundOut(.end(nil)), promise: nil) }
        context.flush()
        return promise.futureResult
    }

    /// Closes the connection at `date` if no exchange is on it then; one in use then is closed by
    /// the pool when it comes free. Called once, on the event loop, when the connection opens.
    func retire(at date: NIODeadline) {
        retirement = eventLoop.assumeIsolated().scheduleTask(deadline: date) {
            if case .idle = self.state { self.context?.close(promise: nil) }
        }
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        requestSent = true
        if case .answered = state { finishExchange(context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): received(head, context: context)
        case .body(let chunk): received(chunk, context: context)
        case .end: receivedEnd(context: context)
        }
    }

    private func received(_ head: HTTPResponseHead, context: ChannelHandlerContext) {
        guard case .awaitingHead(let promise) = state else { return unexpectedInput(context) }
        // An interim answer (100 Continue) is followed by the real one.
        if (100..<200).contains(head.status.code) { return }
        if !head.isKeepAlive { reusable = false }
        let length = head.headers.value(of: "content-length").flatMap(Int.init)
        if head.status == .noContent || head.status == .notModified || length.map({ $0 <= UpstreamClient.wholeBodyLimit }) == true {
            state = .collecting(promise, head, nil)
            return
        }
        answerDue.move(to: nil)
        let reference = ExchangeReference(handler: NIOLoopBound(self, eventLoop: context.eventLoop), number: exchangeNumber)
        let stream = UpstreamBodyStream.makeSequence(
            elementType: ByteBuffer.self, failureType: (any Error).self,
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false,
            delegate: UpstreamBodyDemand(channel: context.channel, exchange: reference))
        state = .streaming(stream.source)
        promise.succeed(UpstreamResponse(head: head, body: .stream(stream.sequence)))
    }

    private func received(_ chunk: ByteBuffer, context: ChannelHandlerContext) {
        switch state {
        case .collecting(let promise, let head, var body):
            state = .answered  // lets `body` be extended in place
            if body == nil { body = chunk } else { body!.writeImmutableBuffer(chunk) }
            state = .collecting(promise, head, body)
        case .streaming(let source):
            if source.yield(chunk) == .stopProducing {
                readingPaused = true
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
            }
        default:
            unexpectedInput(context)
        }
    }

    private func receivedEnd(context: ChannelHandlerContext) {
        switch state {
        case .collecting(let promise, let head, let body):
            answerDue.move(to: nil)
            state = .answered
            promise.succeed(UpstreamResponse(head: head, body: .whole(body ?? context.channel.allocator.buffer(capacity: 0))))
        case .streaming(let source):
            state = .answered
            source.finish()
        default:
            return unexpectedInput(context)
        }
        if requestSent { finishExchange(context) }
    }

    private func finishExchange(_ context: ChannelHandlerContext) {
        state = .idle
        guard reusable else { return context.close(promise: nil) }
        if readingPaused {
            readingPaused = false
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
        }
        whenIdle?()
    }

    fileprivate func readerStopped(exchange: Int) {
        // A reader that stops before the end leaves the rest of the answer on the connection.
        guard exchange == exchangeNumber, case .streaming = state else { return }
        reusable = false
        context?.close(promise: nil)
    }

    private func deadlinePassed() {
        switch state {
        case .awaitingHead(let promise), .collecting(let promise, _, _):
            state = .closed
            promise.fail(UpstreamFailure.timedOut)
            context?.close(promise: nil)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failExchange()
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        answerDue.cancel()
        retirement?.cancel()
        failExchange()
        // The pool's callbacks hold this handler's connection: dropping them ends the cycle.
        let closed = whenClosed
        whenIdle = nil
        whenClosed = nil
        closed?()
        context.fireChannelInactive()
    }

    private func failExchange() {
        switch state {
        case .awaitingHead(let promise): promise.fail(UpstreamFailure.closed(beforeResponse: true))
        case .collecting(let promise, _, _): promise.fail(UpstreamFailure.closed(beforeResponse: false))
        case .streaming(let source): source.finish(UpstreamFailure.closed(beforeResponse: false))
        case .idle, .answered, .closed: break
        }
        state = .closed
    }

    /// Input that answers no request: the connection cannot be trusted any more.
    private func unexpectedInput(_ context: ChannelHandlerContext) {
        failExchange()
        context.close(promise: nil)
    }
}
