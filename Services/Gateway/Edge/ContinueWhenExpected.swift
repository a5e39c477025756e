import NIOCore
import NIOHTTP1

/// Answers `100 Continue` to a request that waits for it before sending its body (`Expect:
/// 100-continue`, RFC 9110 §10.1.1), once the answers to the requests before it on the connection are
/// out — unless its body is over the gateway's limit (its 413 follows at once) or its own answer comes
/// first. Nothing else at the gateway or in Hummingbird sends it: such a client waited for its own timer
/// before sending the body (curl 1 s; Java's `HttpClient` with `expectContinue` until its request
/// timed out).
///
/// It sits right after the HTTP decoder, where every answer passes on its way out, relayed or from the
/// router. A request asking for an upgrade takes it out of the pipeline: the connection may carry
/// WebSocket frames next, which are not HTTP parts.
final class ContinueWhenExpected: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let bodyLimit: Int
    /// Request heads read, and final answers begun, on this connection.
    private var requests = 0
    private var answers = 0
    /// Whether an answer's head is out and its end not yet: a 100 must not go inside it.
    private var answering = false
    /// The request (by its count) still owed its 100.
    private var owed: Int?

    init(bodyLimit: Int) { self.bodyLimit = bodyLimit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if head.headers.contains(name: "upgrade") {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        requests += 1
        if Self.expectsContinue(head), !Self.body(of: head, isOver: bodyLimit) {
            owed = requests
            continueIfDue(context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            answers += 1
            answering = true
            // Its own answer came before its body was asked for: no 100 after it.
            if owed == answers { owed = nil }
            context.write(data, promise: promise)
        case .end:
            answering = false
            context.write(data, promise: promise)
            continueIfDue(context: context)
        default:
            context.write(data, promise: promise)
        }
    }

    private func continueIfDue(context: ChannelHandlerContext) {
        guard let owed, answers == owed - 1, !answering else { return }
        self.owed = nil
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }

    /// An HTTP/1.1 request waiting for `100 Continue` (an HTTP/1.0 client's is ignored, RFC 9110 §10.1.1).
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        (head.version.major, head.version.minor) >= (1, 1)
            && head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
    }

    static func body(of head: HTTPRequestHead, isOver limit: Int) -> Bool {
        head.headers["content-length"].first.flatMap { Int($0) }.map { $0 > limit } ?? false
    }
}
