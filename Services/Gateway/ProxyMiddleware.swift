import Contracts
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import ServiceHTTP
import Tracing

/// Passes every routable request to its module: streams bodies both ways, drops hop-by-hop
/// headers, adds `X-Forwarded-For` and the request id, and answers 413/429/503/504 itself.
/// Anything it does not route (the gateway's own `/health`, `/metrics`, `/openapi.json`) goes on
/// to the router.
struct ProxyMiddleware: RouterMiddleware {
    typealias Context = HuddleRequestContext

    let routes: RouteTable
    let balancer: Balancer
    let client: UpstreamClient
    var call: ModuleCall { ModuleCall(balancer: balancer) }
    let edge: EdgePolicy
    let bodyLimit: Int
    /// The body limit of a route that carries a file (`RouteTable.Entry.carriesFile`).
    let uploadLimit: Int
    let timeout: Duration

    func handle(
        _ request: Request, context: HuddleRequestContext, next: (Request, HuddleRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if RouteTable.isInternal(path) { throw GatewayError.noRoute }
        guard let route = routes.entry(for: path) else { return try await next(request, context) }
        let module = route.module
        // Metrics count proxied requests by the route table's pattern, as the router does its own.
        context.coreContext.endpointPath.value = route.route
        if !EdgePolicy.chargedAtHead(contentLength: request.headers[.contentLength], transferEncoding: request.headers[.transferEncoding]),
            let refusal = edge.refusal(of: client(of: request, context).address)
        {
            throw refusal
        }
        let limit = route.carriesFile ? uploadLimit : bodyLimit
        if let length = request.headers.value(of: .contentLength).flatMap(Int.init), length > limit {
            throw CommonError.payloadTooLarge(limitBytes: limit)
        }
        // The upstream call is a client span of the gateway's server span, and its context goes to the module.
        return try await withSpanWhenTraced("\(request.method.rawValue) \(route.route)", ofKind: .client) { span in
            span?.attributes["huddle.callee"] = module.rawValue
            let response = try await forward(request, to: module, bodyLimit: limit, context: context)
            span?.attributes["http.response.status_code"] = Int(response.status.code)
            return response
        }
    }

    /// Sends the request to the module (`ModuleCall`) and hands its answer back as it comes.
    private func forward(_ request: Request, to module: ServiceModule, bodyLimit: Int, context: HuddleRequestContext) async throws
        -> Response
    {
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let head = upstreamHead(of: request, context: context)
        let loop = client.loopForCaller()
        do {
            let body = try await OutgoingBody(request, bodyLimit: bodyLimit)
            let (client, bodyLimit, logger) = (client, bodyLimit, context.logger)
            let answer = try await call.send(to: module, on: loop, logger: { logger }) { base in
                Self.send(request, head: head, body: body, to: base, deadline: deadline, client: client, bodyLimit: bodyLimit, on: loop)
            }.get()
            let headers = HTTPFields(HopByHop.returnable(answer.head.headers), splitCookie: false)
            let status = HTTPResponse.Status(code: Int(answer.head.status.code))
            switch answer.body {
            case .whole(let body):
                return Response(status: status, headers: headers, body: .init(byteBuffer: body))
            case .stream(let body):
                return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: body))
            }
        } catch is LimitedBody.TooLarge {
            throw CommonError.payloadTooLarge(limitBytes: bodyLimit)
        }
    }

    /// The request as the module gets it: end-to-end headers, the request id, the client's address.
    private func upstreamHead(of request: Request, context: HuddleRequestContext) -> HTTPRequestHead {
        let headers = HopByHop.upstreamHeaders(
            HTTPHeaders(request.headers), requestID: context.requestID, trace: .current,
            forwardedFor: client(of: request, context).forwardedFor)
        let path = request.uri.string.hasPrefix("/") ? request.uri.string : "/" + request.uri.string
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(request.method), uri: path, headers: headers)
    }

    /// Sends the request with its body in the cheapest way its framing allows.
    private static func send(
        _ request: Request, head: HTTPRequestHead, body: OutgoingBody, to base: String, deadline: NIODeadline, client: UpstreamClient,
        bodyLimit: Int, on loop: any EventLoop
    ) -> EventLoopFuture<UpstreamResponse> {
        var head = head
        switch body {
        case .none:
            return client.send(head, body: nil, to: base, deadline: deadline, on: loop)
        case .whole(let whole):
            head.headers.add(name: "Content-Length", value: String(whole.readableBytes))
            return client.send(head, body: whole, to: base, deadline: deadline, on: loop)
        case .streamed(let length):
            if let length {
                head.headers.add(name: "Content-Length", value: String(length))
            } else {
                head.headers.add(name: "Transfer-Encoding", value: "chunked")
            }
            return loop.makeFutureWithTask { [head] in
                try await client.send(head, streaming: LimitedBody(base: request.body, limit: bodyLimit), to: base, deadline: deadline)
            }
        }
    }

    /// Who sent the request, and the `X-Forwarded-For` that says so (`TrustedProxies`).
    private func client(of request: Request, _ context: HuddleRequestContext) -> (address: String, forwardedFor: String) {
        edge.client(peer: context.remoteAddress?.ipAddress, fields: request.headers)
    }
}

/// A request's body as it goes to a module: none, read whole first (it goes out with the head in
/// one write, and again to another instance if the first cannot be reached), or streamed (a
/// connection is made before any of it is read, so an unreachable instance costs none of it).
enum OutgoingBody {
    case none
    case whole(ByteBuffer)
    case streamed(length: Int?)

    /// A GET's or HEAD's body means nothing (RFC 9110 §9.3.1–2), and a TRACE must carry none (§9.3.8):
    /// NIO's request encoder drops a TRACE's Content-Length, so a body written after its head would
    /// reach the module as the start of another request, one the gateway never routed.
    static let sentWithoutBody: Set<HTTPRequest.Method> = [.get, .head, .trace]

    init(_ request: Request, bodyLimit: Int) async throws {
        let length = request.headers.value(of: .contentLength).flatMap(Int.init)
        // Without a length or chunked framing an HTTP/1.1 request has no body (RFC 9112 §6.3).
        let hasBody = length != nil || request.headers.value(of: .transferEncoding) != nil
        if Self.sentWithoutBody.contains(request.method) || !hasBody {
            self = .none
        } else if let length, length <= UpstreamClient.wholeBodyLimit {
            self = .whole(try await request.body.collect(upTo: length))
        } else {
            self = .streamed(length: length)
        }
    }
}

/// A request body that fails once more than `limit` bytes have arrived, for bodies without a
/// (truthful) Content-Length.
struct LimitedBody: AsyncSequence, Sendable {
    struct TooLarge: Error {}
    typealias Element = ByteBuffer
    let base: RequestBody
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int
        var seen = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            seen += chunk.readableBytes
            if seen > limit { throw TooLarge() }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), limit: limit) }
}
