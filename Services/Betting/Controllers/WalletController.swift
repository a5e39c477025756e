import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/wallet...`: my balance and my ledger entries.
struct WalletController: Controller {
    let wallets: Wallets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.wallet) { _, context in try await wallets.wallet(of: context.userID) }
        router.on(BettingAPI.transactions) { request, context in
            try await wallets.transactions(of: context.userID, page: try PageRequest(request))
        }
    }
}
