public import Contracts

/// Events purchases publishes (`EventEnvelope.type`) and their payloads.
public enum PurchasesEvent {
    /// A player's entitlements changed (a purchase credited, a renewal, an expiry, a refund): the
    /// whole set they hold now, so the services that enforce the gates keep a copy of it.
    public static let entitlementsChanged = EventType<EntitlementsChanged>("purchases.entitlements.changed", owner: .purchases)

    public struct EntitlementsChanged: Codable, Equatable, Sendable {
        public var userId: UserID
        /// Rises with every change of this player's set: a copy keeps the highest it has seen, so
        /// an older set arriving late changes nothing.
        public var version: Int
        /// What they hold, each with its end (nil: for good); a copy checks the end when it reads.
        public var entitlements: [EntitlementGrant]

        public init(userId: UserID, version: Int, entitlements: [EntitlementGrant]) {
            self.userId = userId
            self.version = version
            self.entitlements = entitlements
        }
    }
}
