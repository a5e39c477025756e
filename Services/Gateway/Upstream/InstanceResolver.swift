import Contracts
import Foundation
import Logging
import ServiceHTTP
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps each module's instances as its address's host name resolves: a Kubernetes headless
/// Service's name (`http://auth-instances:8080`) resolves to one address per ready pod, so the
/// balancer sees pods come and go within `interval`. An address given as an IP literal, or a
/// name that resolves to nothing (DNS down), is left as it was.
struct InstanceResolver: Service {
    let configured: [ServiceModule: [String]]
    let directory: ServiceDirectory
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await repeatUntilShutdown {
            for (module, urls) in configured {
                let resolved = await Self.resolve(urls)
                if !resolved.isEmpty, Set(resolved) != Set(directory.instances(of: module)) {
                    logger.info("\(module.rawValue) instances: \(resolved.sorted().joined(separator: ", "))")
                    directory.set(module, instances: resolved)
                }
            }
            return interval
        }
    }

    /// Every address each URL's host resolves to, as base URLs; a URL whose host is an IP literal
    /// stays as it is.
    static func resolve(_ urls: [String]) async -> [String] {
        var resolved: [String] = []
        for url in urls {
            guard let components = URLComponents(string: url), let host = components.host, let port = components.port else {
                resolved.append(url)
                continue
            }
            if isLiteral(host) {
                resolved.append(url)
                continue
            }
            let found = await Task.detached { Self.addresses(of: host) }.value
            resolved += found.map { $0.contains(":") ? "http://[\($0)]:\(port)" : "http://\($0):\(port)" }
        }
        return resolved
    }

    static func isLiteral(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// The host's addresses from the system resolver (a blocking call, so off the cooperative pool).
    private static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(cString: buffer)
                if !found.contains(address) { found.append(address) }
            }
            cursor = entry.pointee.ai_next
        }
        return found
    }
}
