import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/purchases/...`: the products, my account token, transactions my app submits, my entitlements,
/// and the App Store's notifications.
struct PurchasesController: Controller {
    let purchases: Purchases

    func register(on router: Router<HuddleRequestContext>) {
        router.on(PurchasesAPI.products) { _, _ in Page(items: purchases.products, nextCursor: nil) }
        router.on(PurchasesAPI.accountToken) { _, context in
            AccountToken(appAccountToken: try await purchases.accountToken(of: context.userID))
        }
        router.on(PurchasesAPI.submitAppleTransaction) { body, _, context in
            SubmittedTransaction(entitlements: try await purchases.submit(body.signedTransaction, by: context.userID))
        }
        router.on(PurchasesAPI.appleNotification) { body, _, _ in
            try await purchases.receive(body.signedPayload)
            return AppStoreNotificationReceipt()
        }
        router.on(PurchasesAPI.entitlements) { _, context in
            Page(items: try await purchases.entitlements(of: context.userID), nextCursor: nil)
        }
    }
}
