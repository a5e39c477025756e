public import Contracts
public import Foundation

extension HuddleClient {
    /// The UUID to pass to StoreKit as the purchase's `appAccountToken`, so the transaction names
    /// the signed-in player:
    ///
    ///     let token = try await huddle.appAccountToken()
    ///     let result = try await product.purchase(options: [.appAccountToken(token)])
    public func appAccountToken() async throws -> UUID {
        try await send(PurchasesAPI.accountToken).appAccountToken
    }

    /// Hands a verified StoreKit 2 transaction (`VerificationResult<Transaction>.jwsRepresentation`)
    /// to the server, which checks it with Apple's root and credits it once; answers my entitlements
    /// now. Call `transaction.finish()` after this returns. A retry is safe.
    @discardableResult
    public func submitPurchase(signedTransaction: String) async throws -> [EntitlementGrant] {
        try await send(PurchasesAPI.submitAppleTransaction, body: SubmitTransaction(signedTransaction: signedTransaction)).entitlements
    }

    /// Restores purchases: submits each transaction StoreKit lists as current
    /// (`Transaction.currentEntitlements`, their `jwsRepresentation`), then answers my entitlements.
    @discardableResult
    public func restorePurchases(signedTransactions: [String]) async throws -> [EntitlementGrant] {
        for signed in signedTransactions { _ = try await submitPurchase(signedTransaction: signed) }
        return try await entitlements()
    }

    /// My entitlements now, as the server enforces them.
    public func entitlements() async throws -> [EntitlementGrant] {
        try await send(PurchasesAPI.entitlements).items
    }

    /// What is sold, and what each product unlocks.
    public func products() async throws -> [Product] {
        try await send(PurchasesAPI.products).items
    }
}
