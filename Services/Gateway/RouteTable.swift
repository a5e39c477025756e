public import ServiceKit

/// Which module answers a public path. Patterns are matched segment by segment; `*` matches any
/// one segment; the first matching entry wins, so specific entries come before general ones.
public struct RouteTable: Sendable {
    public struct Entry: Sendable {
        public let pattern: [Substring]
        public let module: ServiceModule
        /// Whether the pattern also matches deeper paths (`/v1/teams` covers `/v1/teams/1/members`).
        public let coversSubpaths: Bool
        /// The pattern as written, with `/**` when it covers subpaths: the route metrics name.
        public let route: String
    }

    public let entries: [Entry]

    public init(_ routes: [(String, ServiceModule, coversSubpaths: Bool)]) {
        entries = routes.map {
            Entry(
                pattern: $0.0.split(separator: "/"), module: $0.1, coversSubpaths: $0.coversSubpaths,
                route: $0.coversSubpaths ? $0.0 + "/**" : $0.0)
        }
    }

    /// The prefixes of API.md.
    public static let standard = RouteTable([
        ("/.well-known/jwks.json", .auth, coversSubpaths: false),
        ("/v1/auth", .auth, coversSubpaths: true),
        ("/v1/users/*/stats", .games, coversSubpaths: false),
        ("/v1/users", .auth, coversSubpaths: true),
        ("/v1/sports", .catalog, coversSubpaths: true),
        ("/v1/leagues", .catalog, coversSubpaths: true),
        ("/v1/teams", .catalog, coversSubpaths: true),
        ("/v1/courses", .catalog, coversSubpaths: true),
        ("/v1/venues", .catalog, coversSubpaths: true),
        ("/v1/news", .catalog, coversSubpaths: true),
        ("/v1/games", .games, coversSubpaths: true),
        ("/v1/rounds", .games, coversSubpaths: true),
        ("/v1/matches", .games, coversSubpaths: true),
        ("/v1/search", .search, coversSubpaths: true),
        ("/v1/betting", .betting, coversSubpaths: true),
        ("/v1/chat", .chat, coversSubpaths: true),
        ("/v1/notifications", .notify, coversSubpaths: true),
    ])

    public func module(for path: String) -> ServiceModule? { entry(for: path)?.module }

    public func entry(for path: String) -> Entry? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        return entries.first { entry in
            guard segments.count == entry.pattern.count || (entry.coversSubpaths && segments.count > entry.pattern.count)
            else { return false }
            return zip(entry.pattern, segments).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    /// Internal routes are never reachable from outside, whatever their spelling.
    public static func isInternal(_ path: String) -> Bool {
        path.split(separator: "/").first.map { $0.lowercased() == "internal" } ?? false
    }
}
