import Contracts
import SQLKit
import ServerContracts

/// The events purchases takes from other modules: a deleted account, whose purchases `Purchases` pseudonymizes.
enum PurchasesEvents {
    static let handlers = EventHandlers<Purchases.Step> { on in
        on.on(AuthEvent.accountDeleted) { deleted, _ in { purchases, sql in try await purchases.erase(deleted.userId, on: sql) } }
    }
}
