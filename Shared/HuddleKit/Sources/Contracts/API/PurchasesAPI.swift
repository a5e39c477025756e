/// Purchases' operations: what is sold, my account token for StoreKit, the App Store transactions my
/// app submits, my entitlements, and the App Store's server notifications.
public enum PurchasesAPI {
    public static let products = Endpoint<Anyone, NoBody, Page<Product>>(
        .get, "/v1/purchases/products", owner: .purchases, summary: "The products sold, their kind and what each unlocks")
    public static let accountToken = Endpoint<SignedIn, NoBody, AccountToken>(
        .get, "/v1/purchases/account-token", owner: .purchases,
        summary: "My appAccountToken: the UUID the app passes to StoreKit's purchase, so a transaction names me")
    public static let submitAppleTransaction = Endpoint<SignedIn, SubmitTransaction, SubmittedTransaction>(
        .post, "/v1/purchases/apple/transactions", owner: .purchases,
        summary: "Submit a StoreKit 2 signed transaction (Transaction.jwsRepresentation): verified to Apple's root, for this app, "
            + "environment and player, then credited once; the same transaction again credits nothing more. Restoring is "
            + "submitting each of Transaction.currentEntitlements",
        problems: [.invalidTransaction, .transactionClaimed], traits: .idempotent)
    public static let appleNotification = Endpoint<Anyone, AppStoreNotificationBody, AppStoreNotificationReceipt>(
        .post, "/v1/purchases/apple/notifications", owner: .purchases,
        summary: "App Store Server Notifications V2 (the URL to give App Store Connect): verified like a transaction, applied once "
            + "per notificationUUID; a 4xx makes the App Store send it again",
        problems: [.invalidTransaction])
    public static let entitlements = Endpoint<SignedIn, NoBody, Page<EntitlementGrant>>(
        .get, "/v1/purchases/entitlements", owner: .purchases,
        summary: "My entitlements now, each from the product that grants it longest, with its end for a subscription")

    public static let all: [APIOperation] = [
        products.operation, accountToken.operation, submitAppleTransaction.operation, appleNotification.operation,
        entitlements.operation,
    ]
}

/// The answer to the App Store's notification: taken (again, for a repeat).
public struct AppStoreNotificationReceipt: Codable, Equatable, Sendable {
    public var received: Bool

    public init(received: Bool = true) { self.received = received }
}

/// Limits on purchases' fields, stated by the document and checked by the service.
public enum PurchasesLimits {
    /// A compact JWS: three base64url segments (a StoreKit transaction is a few kilobytes).
    public static let jws = JSONSchema.text(5...65_536).pattern(JSONSchema.whole("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*"))
}

extension SubmitTransaction: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["signedTransaction": PurchasesLimits.jws] }
}

extension AppStoreNotificationBody: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["signedPayload": PurchasesLimits.jws] }
}
