import Contracts
import Foundation
import ServiceFeatures

/// A transaction as recorded: what was bought, until when, and whether it still counts.
struct OwnedTransaction: Equatable, Sendable {
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var purchasedAt: Date
    /// A subscription's current period's end; nil for what is bought for good.
    var expiresAt: Date?
    /// Refunded or revoked (by Apple, or by family sharing ending): it grants nothing.
    var revoked: Bool
}

/// What a player's transactions entitle them to at a moment. Pure.
enum EntitlementRules {
    /// Each entitlement once, from the product that grants it longest: one bought for good beats any
    /// subscription; of two subscriptions, the later end. Revoked, expired and consumable purchases
    /// grant nothing; products no longer in the catalog grant nothing.
    static func entitlements(from transactions: [OwnedTransaction], catalog: ProductCatalog, at now: Date) -> [EntitlementGrant] {
        var best: [Entitlement: EntitlementGrant] = [:]
        for transaction in transactions where !transaction.revoked {
            guard let product = catalog.product(transaction.productId), product.type != .consumable else { continue }
            let expires = product.type == .autoRenewable ? transaction.expiresAt : nil
            if product.type == .autoRenewable, (expires ?? .distantPast) <= now { continue }
            for entitlement in product.entitlements {
                let grant = EntitlementGrant(entitlement: entitlement, productId: product.productId, expiresAt: expires)
                guard let held = best[entitlement] else {
                    best[entitlement] = grant
                    continue
                }
                if outlasts(grant.expiresAt, held.expiresAt) { best[entitlement] = grant }
            }
        }
        return Entitlement.allCases.compactMap { best[$0] }
    }

    /// Whether an end of `candidate` is later than `held` (nil is never).
    private static func outlasts(_ candidate: Date?, _ held: Date?) -> Bool {
        switch (candidate, held) {
        case (nil, .some): true
        case (.some(let candidate), .some(let held)): candidate > held
        default: false
        }
    }
}
