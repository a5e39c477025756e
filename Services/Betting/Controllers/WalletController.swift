import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/wallet...`: my balance, its refill and my ledger entries.
struct WalletController: Controller {
    let wallets: Wallets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.wallet, use: wallet)
        router.on(BettingAPI.transactions, use: transactions)
        router.on(BettingAPI.refill, use: refill)
    }

    /// `GET /v1/betting/wallet`
    @Sendable func wallet(_ request: Request, _ context: AuthenticatedContext) async throws -> Wallet {
        try await wallets.wallet(of: context.userID)
    }

    /// `POST /v1/betting/wallet/refill`
    @Sendable func refill(_ request: Request, _ context: AuthenticatedContext) async throws -> Wallet {
        try await wallets.refill(context.userID)
    }

    /// `GET /v1/betting/wallet/transactions`
    @Sendable func transactions(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<WalletTransaction> {
        try await wallets.transactions(of: context.userID, page: try PageRequest(request))
    }
}
