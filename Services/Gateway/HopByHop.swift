import Foundation
import HTTPTypes
import ServiceContextModule
import ServiceKit

/// Header translation between the client-facing and upstream connections (RFC 9110 §7.6.1).
enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// Client → upstream. Also dropped: the framing and host, which the upstream request gets anew.
    static let notForwarded = names.union(["host", "content-length"])

    /// Upstream → client. Also dropped: the module's own date and server, which the gateway sets.
    static let notReturned = names.union(["date", "server"])

    static func forwardable(_ fields: HTTPFields) -> HTTPFields { keeping(fields, without: notForwarded) }

    static func returnable(_ fields: HTTPFields) -> HTTPFields { keeping(fields, without: notReturned) }

    /// A request's headers as its module gets them, whichever way it went (relayed or through the
    /// router): end-to-end ones, its request id, `trace`'s context, and the client's address appended
    /// to `X-Forwarded-For`, as each proxy on the way does.
    static func upstreamFields(_ fields: HTTPFields, requestID: String, trace: ServiceContext?, clientAddress: String) -> HTTPFields {
        var upstream = forwardable(fields)
        upstream[.requestID] = requestID
        TraceContext.inject(into: &upstream, context: trace)
        upstream[.forwardedFor] = forwardedFor(fields.value(of: .forwardedFor), adding: clientAddress)
        return upstream
    }

    /// `X-Forwarded-For` with the client's address appended, as each proxy on the way does.
    static func forwardedFor(_ existing: String?, adding clientAddress: String) -> String {
        existing.map { "\($0), \(clientAddress)" } ?? clientAddress
    }

    /// `fields` without `dropped` and without the headers their Connection header lists.
    private static func keeping(_ fields: HTTPFields, without dropped: Set<String>) -> HTTPFields {
        let listed = Set(
            fields[values: .connection].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let dropped = listed.isEmpty ? dropped : dropped.union(listed)
        return HTTPFields(fields.filter { !dropped.contains($0.name.canonicalName) })
    }
}
