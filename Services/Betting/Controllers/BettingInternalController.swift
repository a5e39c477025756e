import Contracts
import Hummingbird
import ServiceKit

/// `/internal/betting/...`: the ledger's consistency check, for operators and tests.
struct BettingInternalController: Controller {
    let database: Database
    let ledger: Ledger

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.Internal.ledgerCheck) { _, _ in try await database.read { sql in try await ledger.check(on: sql) } }
    }
}
