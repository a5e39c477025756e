public import Foundation

/// What a purchase unlocks. The services that own each gated action enforce it, when the
/// deployment turns its gate on (`purchases.gates`).
public enum Entitlement: String, Codable, Sendable, CaseIterable, WireEnum {
    /// The exact place of games and teams I am not a member of (distance is always shown).
    case location
    /// Joining games and teams.
    case join
    /// Creating leagues.
    case leagues
}

/// How a product is sold, in the App Store's terms.
public enum ProductType: String, Codable, Sendable, CaseIterable, WireEnum {
    case nonConsumable, autoRenewable, consumable
}

/// Where a purchase was made. Only the App Store today; Google Play would be a second case.
public enum PurchasePlatform: String, Codable, Sendable, CaseIterable, WireEnum {
    case appStore
}

/// A product the operator sells, and what it unlocks.
public struct Product: Codable, Equatable, Sendable {
    public var productId: String
    public var type: ProductType
    public var entitlements: [Entitlement]

    public init(productId: String, type: ProductType, entitlements: [Entitlement]) {
        self.productId = productId
        self.type = type
        self.entitlements = entitlements
    }
}

/// An entitlement I hold, from which product, until when (nil: for good).
public struct EntitlementGrant: Codable, Equatable, Sendable {
    public var entitlement: Entitlement
    public var productId: String
    public var expiresAt: Date?

    public init(entitlement: Entitlement, productId: String, expiresAt: Date? = nil) {
        self.entitlement = entitlement
        self.productId = productId
        self.expiresAt = expiresAt
    }
}

/// The UUID an app passes to StoreKit as `appAccountToken`, so a transaction names its player.
public struct AccountToken: Codable, Equatable, Sendable {
    public var appAccountToken: UUID

    public init(appAccountToken: UUID) { self.appAccountToken = appAccountToken }
}

/// A StoreKit 2 signed transaction (`Transaction.jwsRepresentation`), as the app received it.
public struct SubmitTransaction: Codable, Equatable, Sendable {
    public var signedTransaction: String

    public init(signedTransaction: String) { self.signedTransaction = signedTransaction }
}

/// What a submitted transaction left me with: all my entitlements now.
public struct SubmittedTransaction: Codable, Equatable, Sendable {
    public var entitlements: [EntitlementGrant]

    public init(entitlements: [EntitlementGrant]) { self.entitlements = entitlements }
}

/// An App Store Server Notification V2, as the App Store posts it.
public struct AppStoreNotificationBody: Codable, Equatable, Sendable {
    public var signedPayload: String

    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
