import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/internal/betting/...`: the ledger's consistency check, for operators and tests.
struct BettingInternalController: Controller {
    let wallets: Wallets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.Internal.ledgerCheck, use: ledgerCheck)
    }

    /// `GET /internal/betting/ledger/check`
    @Sendable func ledgerCheck(_ request: Request, _ context: HuddleRequestContext) async throws -> LedgerCheck {
        try await wallets.checkLedger()
    }
}
