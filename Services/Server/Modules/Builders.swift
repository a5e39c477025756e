import AuthService
import BettingService
import CatalogService
import ChatService
public import Contracts
import GamesService
import Gateway
import MediaService
import ModerationService
import NotifyService
import PurchasesService
import SearchService
public import ServiceHTTP

/// Every module this build can run, by name.
public enum HuddleModules {
    public static let builders: [ServiceModule: ModuleBuilder] = [
        .gateway: .gateway,
        .auth: .auth,
        .catalog: .catalog,
        .games: .games,
        .search: .search,
        .betting: .betting,
        .chat: .chat,
        .notify: .notify,
        .purchases: .purchases,
        .moderation: .moderation,
        .media: .media,
    ]

    /// `all` means every module that exists so far.
    public static var available: [ServiceModule] { ServiceModule.allCases.filter { builders[$0] != nil } }

    public static func resolve(_ list: String) throws -> [ServiceModule] {
        list == "all" ? available : try ServiceModule.parseList(list)
    }
}
