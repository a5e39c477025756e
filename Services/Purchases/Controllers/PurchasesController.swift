import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/purchases/...`: the products, my account token, transactions my app submits, my entitlements,
/// and the App Store's notifications.
struct PurchasesController: Controller {
    let purchases: Purchases

    func register(on router: Router<HuddleRequestContext>) {
        router.on(PurchasesAPI.products, use: products)
        router.on(PurchasesAPI.accountToken, use: accountToken)
        router.on(PurchasesAPI.submitAppleTransaction, use: submitAppleTransaction)
        router.on(PurchasesAPI.appleNotification, use: appleNotification)
        router.on(PurchasesAPI.entitlements, use: entitlements)
    }

    /// `GET /v1/purchases/products`
    @Sendable func products(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Product> {
        Page(items: purchases.products, nextCursor: nil)
    }

    /// `GET /v1/purchases/account-token`
    @Sendable func accountToken(_ request: Request, _ context: AuthenticatedContext) async throws -> AccountToken {
        AccountToken(appAccountToken: try await purchases.accountToken(of: context.userID))
    }

    /// `POST /v1/purchases/apple/transactions`
    @Sendable func submitAppleTransaction(_ body: SubmitTransaction, _ request: Request, _ context: AuthenticatedContext) async throws
        -> SubmittedTransaction
    {
        SubmittedTransaction(entitlements: try await purchases.submit(body.signedTransaction, by: context.userID))
    }

    /// `POST /v1/purchases/apple/notifications`
    @Sendable func appleNotification(_ body: AppStoreNotificationBody, _ request: Request, _ context: HuddleRequestContext) async throws
        -> AppStoreNotificationReceipt
    {
        try await purchases.receive(body.signedPayload)
        return AppStoreNotificationReceipt()
    }

    /// `GET /v1/purchases/entitlements`
    @Sendable func entitlements(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<EntitlementGrant> {
        Page(items: try await purchases.entitlements(of: context.userID), nextCursor: nil)
    }
}
