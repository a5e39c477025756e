import AsyncHTTPClient
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// Passes every routable request to its module: streams bodies both ways, drops hop-by-hop
/// headers, adds `X-Forwarded-For` and the request id, and answers 413/429/503/504 itself.
/// Anything it does not route (the gateway's own `/health`, `/metrics`, `/openapi.json`) goes on
/// to the router.
struct ProxyMiddleware: RouterMiddleware {
    typealias Context = HuddleRequestContext

    let routes: RouteTable
    let directory: ServiceDirectory
    let client: HTTPClient
    let limiter: RateLimiter
    let bodyLimit: Int
    let timeout: Duration
    static let bufferedResponseLimit = 64 * 1024

    func handle(
        _ request: Request, context: HuddleRequestContext, next: (Request, HuddleRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if RouteTable.isInternal(path) { throw GatewayError.noRoute }
        guard let route = routes.entry(for: path) else { return try await next(request, context) }
        let module = route.module
        // Metrics count proxied requests by the route table's pattern, as the router does its own.
        context.coreContext.endpointPath.value = route.route
        if let wait = limiter.check(client: Self.clientAddress(context)) {
            throw CommonError.rateLimited(retryAfterSeconds: wait)
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > bodyLimit {
            throw CommonError.payloadTooLarge(limitBytes: bodyLimit)
        }
        guard let base = directory.url(of: module) else { throw GatewayError.upstreamUnavailable(module) }
        return try await forward(request, to: base, module: module, context: context)
    }

    private func forward(_ request: Request, to base: String, module: ServiceModule, context: HuddleRequestContext) async throws
        -> Response
    {
        var upstream = HTTPClientRequest(url: base + (request.uri.string.hasPrefix("/") ? request.uri.string : "/" + request.uri.string))
        upstream.method = HTTPMethod(rawValue: request.method.rawValue)
        upstream.headers = HopByHop.forwardable(request.headers)
        upstream.headers.replaceOrAdd(name: "X-Request-Id", value: context.requestID)
        let clientIP = Self.clientAddress(context)
        let forwardedFor = request.headers[.forwardedFor].map { "\($0), \(clientIP)" } ?? clientIP
        upstream.headers.replaceOrAdd(name: "X-Forwarded-For", value: forwardedFor)
        if request.method != .get && request.method != .head {
            let length = request.headers[.contentLength].flatMap(Int.init)
            if let length, length <= Self.bufferedResponseLimit {
                // A small body of known size is read whole first. A module may answer before it has
                // read the body, and the server then drains what is left of it: a body still
                // streaming upstream would be read from two places at once.
                upstream.body = .bytes(try await request.body.collect(upTo: length))
            } else {
                upstream.body = .stream(
                    LimitedBody(base: request.body, limit: bodyLimit), length: length.map { .known(Int64($0)) } ?? .unknown)
            }
        }
        do {
            let response = try await client.execute(upstream, timeout: .init(timeout))
            let status = HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
            let headers = HopByHop.returnable(response.headers)
            // Small bodies of known size go out in one write; everything else streams.
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length <= Self.bufferedResponseLimit {
                let body = try await response.body.collect(upTo: length)
                return Response(status: status, headers: headers, body: .init(byteBuffer: body))
            }
            return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: response.body))
        } catch is LimitedBody.TooLarge {
            throw CommonError.payloadTooLarge(limitBytes: bodyLimit)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw GatewayError.upstreamTimeout(module)
        } catch let error as HTTPClientError where error == .remoteConnectionClosed {
            throw GatewayError.badUpstream(module)
        } catch {
            context.logger.warning("upstream \(module.rawValue) unreachable: \(error)")
            throw GatewayError.upstreamUnavailable(module)
        }
    }

    static func clientAddress(_ context: HuddleRequestContext) -> String {
        context.remoteAddress?.ipAddress ?? "unknown"
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
