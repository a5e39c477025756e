import Contracts
import NIOCore
import NIOHTTP1
import ServiceHTTP

/// Bounds a request's body in time, and charges the client's rate limit for it, from the moment its
/// head arrives: as nginx's `client_body_timeout` does, a body not whole within `timeout` of its head
/// is answered 408 and the connection closed. Without it a head announcing 200 bytes followed by ten
/// held its connection for ever, and a thousand such connections from one address stayed open, each
/// uncharged by the rate limit, which saw a request only once its body was complete.
///
/// A request without a body is charged where it is answered (`ModuleRelay`, `ProxyMiddleware`), so
/// its 429 keeps its place among pipelined answers; one with a body is charged here (`EdgePolicy`),
/// and one over the limit is refused at once, before its body is read.
///
/// It sits right after the HTTP decoder, which gives it each request's head and end. A request
/// asking for an upgrade takes it out of the pipeline: WebSocket frames may follow, not HTTP parts.
final class RequestBodyGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let timeout: TimeAmount
    private let edge: EdgePolicy
    private let headGuard: RequestHeadGuard
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount, edge: EdgePolicy, headGuard: RequestHeadGuard) {
        self.timeout = timeout
        self.edge = edge
        self.headGuard = headGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.headers.contains(name: "upgrade"):
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .head(let head)
        where EdgePolicy.chargedAtHead(
            contentLength: head.headers.first(name: "content-length"), transferEncoding: head.headers.first(name: "transfer-encoding")):
            let client = edge.client(peer: context.channel.remoteAddress?.ipAddress, headers: head.headers).address
            if let refusal = edge.refusal(of: client) {
                return refuse(.rateLimited, refusal.problem.detail ?? refusal.problem.title, context: context)
            }
            armDeadline(context: context)
            context.fireChannelRead(data)
        case .end:
            disarm()
            context.fireChannelRead(data)
        default:
            context.fireChannelRead(data)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    private func armDeadline(context: ChannelHandlerContext) {
        disarm()
        let timeout = timeout
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            deadline = nil
            refuse(
                .requestTimeout, "The request body did not arrive within \(timeout.nanoseconds / 1_000_000) ms of its head.",
                context: context)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    /// The head guard's answer and close, once the requests before this one are answered: what is left
    /// of this request's body will not be read, so the connection cannot carry another.
    private func refuse(_ kind: ProblemCode, _ detail: String, context: ChannelHandlerContext) {
        disarm()
        headGuard.refuseInTurn(kind, detail, from: context)
    }
}
