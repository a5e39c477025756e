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

    /// Where in a request's way the limit is asked.
    enum Checkpoint {
        /// Its head has arrived (the body guard).
        case head
        /// It is about to be answered (the relay, the router's proxy).
        case answer
        /// It asks for a socket.
        case upgrade
    }

    /// The client a request comes from, and the `X-Forwarded-For` its module is sent.
    func client(peer: String?, headers: HTTPHeaders) -> (address: String, forwardedFor: String) {
        proxies.client(peer: peer ?? "unknown", headers: headers)
    }

    func client(peer: String?, fields: HTTPFields) -> (address: String, forwardedFor: String) {
        proxies.client(peer: peer ?? "unknown", fields: fields)
    }

    /// The 429 for `client`, or nil when it may go on (or is not charged at `checkpoint`).
    func refusal(of client: String, at checkpoint: Checkpoint, contentLength: String? = nil, transferEncoding: String? = nil)
        -> CommonError?
    {
        let hasBody = Self.hasBody(contentLength: contentLength, transferEncoding: transferEncoding)
        switch checkpoint {
        case .head: guard hasBody else { return nil }
        case .answer: guard !hasBody else { return nil }
        case .upgrade: break
        }
        return limiter.check(client: client).map { CommonError.rateLimited(retryAfterSeconds: $0, policy: limiter.policy) }
    }

    /// Whether a request with this head carries a body (and so is charged when its head arrives).
    static func hasBody(contentLength: String?, transferEncoding: String?) -> Bool {
        transferEncoding != nil || (contentLength.flatMap { Int($0) } ?? 0) > 0
    }

    /// The request's id: the client's `X-Request-Id` when it is fit to log, else a new one.
    static func requestID(headers: HTTPHeaders) -> String {
        RequestIDMiddleware.requestID(offered: headers.first(name: Routes.Header.requestID))
    }

    static func requestID(fields: HTTPFields) -> String { RequestIDMiddleware.requestID(for: fields) }
}
