import Foundation
import HTTPTypes
import NIOHTTP1

/// Header translation between the client-facing and upstream connections (RFC 9110 §7.6.1).
enum HopByHop {
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te", "trailer",
        "transfer-encoding", "upgrade",
    ]

    /// Client → upstream.
    /// Also dropped client → upstream: the client library sets them for the new request.
    static let notForwarded = names.union(["host", "content-length"])

    static func forwardable(_ fields: HTTPFields) -> HTTPHeaders {
        let listed = connectionListed(fields)
        let dropped = listed.isEmpty ? notForwarded : notForwarded.union(listed)
        var headers = HTTPHeaders()
        for field in fields where !dropped.contains(field.name.canonicalName) {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return headers
    }

    /// Upstream → client.
    static func returnable(_ headers: HTTPHeaders) -> HTTPFields {
        let listed = Set(headers["connection"].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        let dropped = names.union(listed).union(["date", "server"])
        var fields = HTTPFields()
        for (name, value) in headers where !dropped.contains(name.lowercased()) {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return fields
    }

    private static func connectionListed(_ fields: HTTPFields) -> Set<String> {
        Set(fields[values: .connection].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
}
