import AuthService
import CatalogService
public import Contracts
import GamesService
import Gateway
import SearchService
public import ServiceKit

/// Every module this build can run, by name.
public enum HuddleModules {
    public static let builders: [ServiceModule: ModuleBuilder] = [
        .gateway: ModuleBuilder(.gateway) { try await buildGateway(reader: $0, dependencies: $1) },
        .auth: ModuleBuilder(.auth) { try await buildAuthService(reader: $0, dependencies: $1) },
        .catalog: ModuleBuilder(.catalog) { try await buildCatalogService(reader: $0, dependencies: $1) },
        .games: ModuleBuilder(.games) { try await buildGamesService(reader: $0, dependencies: $1) },
        .search: ModuleBuilder(.search) { try await buildSearchService(reader: $0, dependencies: $1) },
    ]

    /// `all` means every module that exists so far.
    public static var available: [ServiceModule] { ServiceModule.allCases.filter { builders[$0] != nil } }

    /// Which modules consume whose events (`/internal/events`).
    static let consumers: [ServiceModule: [ServiceModule]] = [
        .auth: [.search],
        .catalog: [.games, .search],
        .games: [.search, .notify, .chat],
    ]

    /// `<module>.events.subscribers` for modules that run together: each publisher delivers to
    /// the consumers among them.
    public static func subscriberSettings(for modules: [ServiceModule]) -> [String: String] {
        consumers.reduce(into: [:]) { settings, entry in
            let running = entry.value.filter(modules.contains)
            if modules.contains(entry.key), !running.isEmpty {
                settings["\(entry.key.rawValue).events.subscribers"] = running.map(\.rawValue).joined(separator: ",")
            }
        }
    }

    public static func resolve(_ list: String) throws -> [ServiceModule] {
        list == "all" ? available : try ServiceModule.parseList(list)
    }
}
