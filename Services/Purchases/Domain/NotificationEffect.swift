/// What an App Store Server Notification V2 does to the transaction it carries. Pure, so every type
/// Apple documents has its effect tested directly; a type Apple adds later is recorded and logged,
/// never dropped.
enum NotificationEffect: Equatable, Sendable {
    /// A new period or a redeemed offer: record the carried transaction (its new `expiresDate`).
    case extend
    /// Billing failed but Apple keeps the subscription going for a grace period: it counts until
    /// the renewal info's `gracePeriodExpiresDate`.
    case grace
    /// The subscription lapsed: every period of it ends, now at the latest.
    case end
    /// Refunded or revoked: the transaction grants nothing.
    case revoke
    /// A refund taken back: the transaction grants again.
    case restore
    /// Apple's test notification: answered, nothing changes.
    case acknowledge
    /// Informative, or a type this build does not know: kept, nothing changes.
    case record

    init(type: String, subtype: String?) {
        switch type {
        case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "RENEWAL_EXTENDED": self = .extend
        case "EXPIRED", "GRACE_PERIOD_EXPIRED": self = .end
        // In a billing grace period the subscription still counts; outside it, failing to renew ends it.
        case "DID_FAIL_TO_RENEW": self = subtype == "GRACE_PERIOD" ? .grace : .end
        case "REFUND", "REVOKE": self = .revoke
        case "REFUND_REVERSED": self = .restore
        case "TEST": self = .acknowledge
        default: self = .record
        }
    }
}
