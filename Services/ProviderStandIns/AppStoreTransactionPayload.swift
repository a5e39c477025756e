public import Foundation
public import HuddleEffects

/// A StoreKit 2 transaction as the App Store signs it (Apple's `JWSTransactionDecodedPayload`,
/// the fields Huddle reads). Dates are milliseconds since 1970.
public struct AppStoreTransactionPayload: Codable, Sendable {
    public var transactionId: String
    public var originalTransactionId: String
    public var bundleId: String
    public var productId: String
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var expiresDate: Int64?
    public var type: String
    public var appAccountToken: String?
    public var environment: String
    public var signedDate: Int64
    public var revocationDate: Int64?
    public var revocationReason: Int?
    public var quantity: Int
    public var inAppOwnershipType: String

    public init(
        transactionId: String, originalTransactionId: String? = nil, bundleId: String, productId: String, type: String,
        appAccountToken: UUID?, environment: String = "Sandbox", purchaseDate: Date = Effects.system.now(), expiresDate: Date? = nil,
        signedDate: Date = Effects.system.now()
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId ?? transactionId
        self.bundleId = bundleId
        self.productId = productId
        self.type = type
        self.appAccountToken = appAccountToken?.uuidString.lowercased()
        self.environment = environment
        self.purchaseDate = Self.milliseconds(purchaseDate)
        originalPurchaseDate = self.purchaseDate
        self.expiresDate = expiresDate.map(Self.milliseconds)
        self.signedDate = Self.milliseconds(signedDate)
        quantity = 1
        inAppOwnershipType = "PURCHASED"
    }

    public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
