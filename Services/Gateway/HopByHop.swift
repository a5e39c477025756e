import Foundation
import NIOHTTP1
import ServiceContextModule
import ServiceHTTP

/// Header translation between the client-facing and upstream connections (RFC 9110 §7.6.1), on NIO's
/// HTTP/1 headers: the relay passes a request and its answer on as NIO decoded them (`ModuleRelay`),
/// and the router's path converts its `HTTPFields` once each way (`ProxyMiddleware`).
enum HopByHop {
    static let names = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// Client → upstream. Also dropped: the framing and host, which the upstream request gets anew.
    static let notForwarded = names + ["host", "content-length"]

    /// Upstream → client. Also dropped: the module's own date and server, which the gateway sets.
    static let notReturned = names + ["date", "server"]

    static func returnable(_ headers: HTTPHeaders) -> HTTPHeaders { keeping(headers, without: notReturned) }

    /// A request's headers as its module gets them, whichever way it went (relayed or through the
    /// router): end-to-end ones, its request id, `trace`'s context, and `X-Forwarded-For` ending with
    /// the client's address (`TrustedProxies.client`).
    static func upstreamHeaders(_ headers: HTTPHeaders, requestID: String, trace: ServiceContext?, forwardedFor: String) -> HTTPHeaders {
        var upstream = keeping(headers, without: notForwarded)
        upstream.replaceOrAdd(name: "X-Request-Id", value: requestID)
        TraceContext.inject(into: &upstream, context: trace)
        upstream.replaceOrAdd(name: "X-Forwarded-For", value: forwardedFor)
        return upstream
    }

    /// `X-Forwarded-For` with the client's address appended, as each proxy on the way does.
    static func forwardedFor(_ existing: String?, adding clientAddress: String) -> String {
        existing.map { "\($0), \(clientAddress)" } ?? clientAddress
    }

    /// `headers` without `dropped` and without the headers their Connection header lists.
    private static func keeping(_ headers: HTTPHeaders, without dropped: [String]) -> HTTPHeaders {
        let listed = headers.value(of: "connection").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        var kept = HTTPHeaders()
        kept.reserveCapacity(headers.count + 4)
        for (name, value) in headers
        where !dropped.contains(where: { name.equalsIgnoringASCIICase($0) })
            && !listed.contains(where: { name.equalsIgnoringASCIICase($0) })
        {
            kept.add(name: name, value: value)
        }
        return kept
    }
}
