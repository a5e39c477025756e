import Foundation

/// The App Store's environments, as its payloads name them.
enum AppStoreEnvironment: String, Codable, Sendable {
    case production = "Production", sandbox = "Sandbox", xcode = "Xcode", localTesting = "LocalTesting"
}

/// What the App Store signs carries the moment it was signed: the chain is checked as of then.
protocol AppStoreSigned: Decodable, Sendable {
    /// Milliseconds since 1970.
    var signedDate: Int64 { get }
}

/// A StoreKit 2 transaction (Apple's `JWSTransactionDecodedPayload`), the fields Huddle reads.
/// Dates are milliseconds since 1970, as Apple sends them.
struct AppStoreTransaction: AppStoreSigned, Equatable {
    var transactionId: String
    var originalTransactionId: String
    var bundleId: String
    var productId: String
    var purchaseDate: Int64
    var expiresDate: Int64?
    /// "Auto-Renewable Subscription", "Non-Consumable", "Consumable" or "Non-Renewing Subscription".
    var type: String
    var appAccountToken: UUID?
    var environment: AppStoreEnvironment
    var signedDate: Int64
    var revocationDate: Int64?
    var quantity: Int?
}

/// An App Store Server Notification V2 (Apple's `ResponseBodyV2DecodedPayload`).
struct AppStoreNotification: AppStoreSigned, Equatable {
    struct Details: Decodable, Sendable, Equatable {
        var bundleId: String?
        var environment: AppStoreEnvironment?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        var status: Int?
    }

    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var data: Details?
    var version: String?
    var signedDate: Int64
}

extension Date {
    init(appStoreMilliseconds milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

/// A subscription's renewal info (Apple's `JWSRenewalInfoDecodedPayload`): when billing fails, how
/// long Apple keeps the subscription going.
struct AppStoreRenewalInfo: AppStoreSigned, Equatable {
    var originalTransactionId: String?
    var gracePeriodExpiresDate: Int64?
    var signedDate: Int64
}
