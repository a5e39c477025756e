import AuthService
import BettingService
import CatalogService
import ChatService
public import Contracts
import GamesService
import Gateway
import ModerationService
import NotifyService
import PurchasesService
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
        .betting: ModuleBuilder(.betting) { try await buildBettingService(reader: $0, dependencies: $1) },
        .chat: ModuleBuilder(.chat) { try await buildChatService(reader: $0, dependencies: $1) },
        .notify: ModuleBuilder(.notify) { try await buildNotifyService(reader: $0, dependencies: $1) },
        .purchases: ModuleBuilder(.purchases) { try await buildPurchasesService(reader: $0, dependencies: $1) },
        .moderation: ModuleBuilder(.moderation) { try await buildModerationService(reader: $0, dependencies: $1) },
    ]

    /// `all` means every module that exists so far.
    public static var available: [ServiceModule] { ServiceModule.allCases.filter { builders[$0] != nil } }

    public static func resolve(_ list: String) throws -> [ServiceModule] {
        list == "all" ? available : try ServiceModule.parseList(list)
    }
}
