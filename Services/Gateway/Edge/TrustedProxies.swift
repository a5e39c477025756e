import Foundation
import HTTPTypes
import NIOHTTP1
import ServiceHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proxies in front of the gateway whose word on the client's address it takes
/// (`gateway.proxies.trusted`: CIDRs, comma-separated; none by default). From any other peer the
/// client is the peer itself, whatever its headers say; from a trusted one, the rightmost address in
/// `X-Forwarded-For` (or `Forwarded: for=`) that is not itself a trusted proxy — the one the first
/// trusted proxy saw. Without them, every player behind one proxy pod shared its rate-limit bucket,
/// and auth's sign-in throttling saw one address.
struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        let address: [UInt8]
        let prefixLength: Int

        func contains(_ other: [UInt8]) -> Bool {
            guard other.count == address.count else { return false }
            var remaining = prefixLength
            for (mine, theirs) in zip(address, other) where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                guard mine & mask == theirs & mask else { return false }
                remaining -= bits
            }
            return true
        }
    }

    let networks: [Network]

    static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// `list`: CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses, comma-separated; nil for an
    /// entry that is neither.
    init?(_ list: String) {
        var networks: [Network] = []
        for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let address = Self.bytes(of: String(parts[0])) else { return nil }
            let length = parts.count == 2 ? Int(parts[1]) : address.count * 8
            guard let length, (0...(address.count * 8)).contains(length) else { return nil }
            networks.append(Network(address: address, prefixLength: length))
        }
        self.networks = networks
    }

    func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client a request came from, and the `X-Forwarded-For` to send on, which ends with it (auth's
    /// throttling reads the last entry).
    func client(peer: String, forwardedFor: String?, forwarded: String?) -> (address: String, forwardedFor: String) {
        guard contains(peer) else { return (peer, HopByHop.forwardedFor(forwardedFor, adding: peer)) }
        let chain = forwardedFor.map(Self.entries(ofForwardedFor:)) ?? forwarded.map(Self.entries(ofForwarded:)) ?? []
        guard let index = chain.lastIndex(where: { !contains($0) }) else {
            let client = chain.first ?? peer
            return (client, client)
        }
        return (chain[index], chain[...index].joined(separator: ", "))
    }

    /// `client(peer:forwardedFor:forwarded:)` from a request's NIO head.
    func client(peer: String, headers: HTTPHeaders) -> (address: String, forwardedFor: String) {
        client(peer: peer, forwardedFor: headers.value(of: "X-Forwarded-For"), forwarded: headers.value(of: "Forwarded"))
    }

    /// `client(peer:forwardedFor:forwarded:)` from a request's fields.
    func client(peer: String, fields: HTTPFields) -> (address: String, forwardedFor: String) {
        client(peer: peer, forwardedFor: fields.value(of: .forwardedFor), forwarded: fields.value(of: HTTPField.Name("Forwarded")!))
    }

    static func entries(ofForwardedFor value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The `for=` of each element of a `Forwarded` header (RFC 7239), without quotes, brackets or port.
    static func entries(ofForwarded value: String) -> [String] {
        value.split(separator: ",").compactMap { element in
            element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.lowercased().hasPrefix("for=") }
                .map { pair in
                    var node = pair.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if node.hasPrefix("["), let end = node.firstIndex(of: "]") {
                        node = String(node[node.index(after: node.startIndex)..<end])
                    } else if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") {
                        node = String(node[..<colon])
                    }
                    return node
                }
        }
    }

    /// An IPv4 or IPv6 address's bytes, as `inet_pton` reads them.
    static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
