import Foundation
import HTTPTypes
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

    /// Appends the client's address to `X-Forwarded-For`, as each proxy on the way does.
    static func addForwardedFor(_ clientAddress: String, to fields: inout HTTPFields) {
        fields[.forwardedFor] = fields[.forwardedFor].map { "\($0), \(clientAddress)" } ?? clientAddress
    }

    /// `fields` without `dropped` and without the headers their Connection header lists.
    private static func keeping(_ fields: HTTPFields, without dropped: Set<String>) -> HTTPFields {
        let listed = Set(
            fields[values: .connection].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let dropped = listed.isEmpty ? dropped : dropped.union(listed)
        return HTTPFields(fields.filter { !dropped.contains($0.name.canonicalName) })
    }
}
