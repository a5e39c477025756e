import Contracts
import HTTPTypes
import NIOHTTP1
import ServiceHTTP

/// What the gateway decides about a request before any module sees it, stated once for each of the
/// paths a request may take (the relay, the router's proxy, a socket's upgrade, the body guard): who
/// the client is behind the trusted proxies, whether the client's bucket has room, and the request's
/// id. A request is charged once: one with a body when its head arrives (`RequestBodyGuard`, so a slow
/// body cannot hold a connection uncharged), any other where it is answered, so its 429 keeps its
/// place among pipelined answers; an upgrade when it is asked for.
struct EdgePolicy: Sendable {
    let limiter: RateLimiter
    let proxies: TrustedProxies

    /// The client a request comes from, and the `X-Forwarded-For` its module is sent.
    func client(peer: String?, headers: HTTPHeaders) -> (address: String, forwardedFor: String) {
        proxies.client(peer: peer ?? "unknown", headers: headers)
    }

    func client(peer: String?, fields: HTTPFields) -> (address: String, forwardedFor: String) {
        proxies.client(peer: peer ?? "unknown", fields: fields)
    }

    /// Whether a request with this head is charged when its head arrives (it carries a body) rather than
    /// where it is answered.
    static func chargedAtHead(contentLength: String?, transferEncoding: String?) -> Bool {
        transferEncoding != nil || (contentLength.flatMap { Int($0) } ?? 0) > 0
    }

    /// Charges `client`'s bucket: the 429 to answer, or nil when it may go on.
    func refusal(of client: String) -> CommonError? {
        limiter.check(client: client).map { CommonError.rateLimited(retryAfterSeconds: $0, policy: limiter.policy) }
    }

    /// The request's id: the client's `X-Request-Id` when it is fit to log, else a new one.
    static func requestID(headers: HTTPHeaders) -> String {
        RequestIDMiddleware.requestID(offered: headers.first(name: Routes.Header.requestID))
    }

    static func requestID(fields: HTTPFields) -> String { RequestIDMiddleware.requestID(for: fields) }
}
