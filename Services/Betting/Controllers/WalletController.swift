import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/wallet...`: my balance and my ledger entries.
struct WalletController: Controller {
    let wallets: Wallets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.wallet, use: wallet)
        router.on(BettingAPI.transactions, use: transactions)
    }

    /// `GET /v1/betting/wallet`
    @Sendable func wallet(_ request: Request, _ context: AuthenticatedContext) async throws -> Wallet {
        try await wallets.wallet(of: context.userID)
    }

    /// `GET /v1/betting/wallet/transactions`
    @Sendable func transactions(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<WalletTransaction> {
        try await wallets.transactions(of: context.userID, page: try PageRequest(request))
    }
}
