import Contracts
import Logging

/// The demo, seeded through the public API in order: accounts, then their phones (so what follows
/// notifies them), then what they bought (from the stand-in App Store at `appStore`), then catalog
/// content, then games, then pictures (through media), then a conversation in chat's global room, and
/// a report of a message in it.
/// Any piece may be left out (nil) when its module is not running. `huddle` seeds its own modules on
/// start; `huddle demo --url` seeds any running stack through its gateway.
enum DemoSeed {
    /// Whether every piece asked for was seeded (or was there already).
    static func run(
        auth: String, catalog: String?, games: String?, chat: String? = nil, notify: String? = nil, purchases: String? = nil,
        appStore: String? = nil, moderation: String? = nil, media: String? = nil, logger: Logger
    ) async -> Bool {
        let sessions = await DemoData.seed(authURL: auth, logger: logger)
        var complete = sessions.count == DemoData.players.count + 1
        if let notify { complete = await DemoNotify.seed(notifyURL: notify, sessions: sessions, logger: logger) && complete }
        if let purchases, let appStore {
            complete =
                await DemoPurchases.seed(purchasesURL: purchases, appStoreURL: appStore, sessions: sessions, logger: logger) && complete
        }
        if let catalog {
            complete = await DemoCatalog.seed(catalogURL: catalog, sessions: sessions, logger: logger) && complete
            if let games {
                complete = await DemoGames.seed(catalogURL: catalog, gamesURL: games, sessions: sessions, logger: logger) && complete
            }
        }
        if let media {
            complete =
                await DemoPictures.seed(mediaURL: media, authURL: auth, catalogURL: catalog, sessions: sessions, logger: logger) && complete
        }
        if let chat {
            complete = await DemoChat.seed(chatURL: chat, teamRoom: catalog != nil, sessions: sessions, logger: logger) && complete
        }
        if let chat, let moderation {
            complete = await DemoModeration.seed(chatURL: chat, moderationURL: moderation, sessions: sessions, logger: logger) && complete
        }
        return complete
    }
}

/// Demo data that could not be made as planned (a provider's fixture without odds, a room missing).
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
}
