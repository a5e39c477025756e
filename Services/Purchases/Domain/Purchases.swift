import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceStore

/// The purchases of players: their account tokens, the App Store transactions their apps submit,
/// and what the App Store's notifications change. Entitlements are never stored: they are what
/// the recorded transactions grant now (`EntitlementRules`), so crediting twice changes nothing.
/// Every change of what a player holds is published, in its transaction, to the services that
/// enforce the gates (`PurchasesEvent.entitlementsChanged`).
struct Purchases: Sendable {
    let database: Database
    let store: any PurchaseStore
    let verifier: SignedDataVerifier
    let settings: PurchasesSettings
    /// Asked for a restored subscription's later periods; nil without an API key.
    let serverAPI: AppStoreServerAPI?
    let logger: Logger
    let now: @Sendable () -> Date
    var outbox: Outbox { Outbox(now: now) }

    var products: [Product] { settings.catalog.products }

    func accountToken(of user: UserID) async throws -> UUID {
        try await database.transaction { sql in try await store.accountToken(of: user, on: sql) }
    }

    func entitlements(of user: UserID) async throws -> [EntitlementGrant] {
        let owned = try await database.read { sql in try await store.transactions(of: user, on: sql) }
        return EntitlementRules.entitlements(from: owned, catalog: settings.catalog, at: now())
    }

    /// Credits a signed transaction the player's app received. A transaction is the account's that
    /// claimed it first (by its original transaction id, which a subscription's renewals share).
    func submit(_ signedTransaction: String, by user: UserID) async throws -> [EntitlementGrant] {
        let transaction = try await verifiedTransaction(signedTransaction)
        let renewals = await laterPeriods(of: transaction)
        try await database.transaction { sql in
            // An app that sets no account token is judged by the claim alone.
            if let token = transaction.appAccountToken, try await token != store.accountToken(of: user, on: sql) {
                throw PurchasesError.invalidTransaction("appAccountToken is not this player's (ask GET /v1/purchases/account-token)")
            }
            guard try await store.claim(transaction.originalTransactionId, for: user, on: sql) == user else {
                throw PurchasesError.transactionClaimed
            }
            for credited in [transaction] + renewals {
                try await store.record(owned(credited), of: user, environment: credited.environment.rawValue, at: now(), on: sql)
            }
            try await publishEntitlements(of: user, on: sql)
        }
        return try await entitlements(of: user)
    }

    /// A subscription's periods after `transaction`, from the App Store Server API's history: a phone
    /// restoring may hold an old period whose renewal no notification brought. The API being down or
    /// refusing leaves the submission as it was (logged), never fails it.
    private func laterPeriods(of transaction: AppStoreTransaction) async -> [AppStoreTransaction] {
        guard let serverAPI, settings.catalog.product(transaction.productId)?.type == .autoRenewable else { return [] }
        do {
            var later: [AppStoreTransaction] = []
            for signed in try await serverAPI.history(of: transaction.transactionId, now: now()) {
                let period = try await verifiedTransaction(signed, soldHere: false)
                if period.originalTransactionId == transaction.originalTransactionId, period.purchaseDate > transaction.purchaseDate {
                    later.append(period)
                }
            }
            return later
        } catch {
            logger.warning("App Store Server API history of \(transaction.transactionId) not read: \(error)")
            return []
        }
    }

    /// Applies an App Store Server Notification V2, once per `notificationUUID`. A notification
    /// about a transaction no player has claimed yet is credited to the player its account token names.
    func receive(_ signedPayload: String) async throws {
        let notification: AppStoreNotification
        do {
            notification = try await verifier.verify(signedPayload, as: AppStoreNotification.self)
        } catch {
            throw PurchasesError.invalidTransaction(error.reason)
        }
        if let data = notification.data {
            try checkApp(bundleID: data.bundleId, environment: data.environment)
        }
        let transaction: AppStoreTransaction?
        if let signed = notification.data?.signedTransactionInfo {
            transaction = try await verifiedTransaction(signed, soldHere: false)
        } else {
            transaction = nil
        }
        // About a product no longer sold here: kept, as an unknown type is, rather than refused (the
        // App Store would send it again for days).
        let sold = transaction.map { settings.catalog.product($0.productId) != nil } ?? true
        let effect = sold ? NotificationEffect(type: notification.notificationType, subtype: notification.subtype) : .record
        let graceEnds = try await graceEnd(of: notification, effect: effect)
        let at = now()
        let kept = ReceivedNotification(
            uuid: notification.notificationUUID, type: notification.notificationType, subtype: notification.subtype, effect: effect,
            transactionId: transaction?.transactionId, receivedAt: at, payload: signedPayload)
        try await database.transaction { sql in
            guard try await store.keep(kept, on: sql) else { return }
            guard let transaction, let holder = try await apply(effect, to: transaction, graceEnds: graceEnds, at: at, on: sql) else {
                return
            }
            try await publishEntitlements(of: holder, on: sql)
        }
        if effect == .record {
            logger.notice("App Store notification \(notification.notificationType) \(notification.subtype ?? "") kept, nothing changed")
        }
    }

    /// A deleted account's purchases: its transactions stay claimed, under a pseudonym nothing links
    /// back to the player (a refund is still applied, and no account can claim them again); its
    /// entitlements end in every service that enforces them.
    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await store.pseudonymize(user, as: UserID(), on: sql)
        try await publishEntitlements(of: user, on: sql)
    }

    typealias Step = @Sendable (Purchases, any SQLDatabase) async throws -> Void

    /// Auth's account deletions.

    /// Applies the effect; answers the player whose entitlements it may have changed.
    private func apply(
        _ effect: NotificationEffect, to transaction: AppStoreTransaction, graceEnds: Date?, at: Date, on sql: any SQLDatabase
    ) async throws -> UserID? {
        let original = transaction.originalTransactionId
        switch effect {
        case .extend, .grace:
            var credited = owned(transaction)
            if let graceEnds { credited.expiresAt = max(credited.expiresAt ?? graceEnds, graceEnds) }
            guard let named = try await owner(of: transaction, on: sql) else {
                logger.warning("App Store transaction \(transaction.transactionId) names no player of this server")
                return nil
            }
            let user = try await store.claim(original, for: named, on: sql)
            try await store.record(credited, of: user, environment: transaction.environment.rawValue, at: at, on: sql)
            return user
        case .end:
            try await store.end(original: original, at: at, on: sql)
            return try await store.claimant(of: original, on: sql)
        case .revoke:
            try await store.setRevoked(true, transaction: transaction.transactionId, on: sql)
            return try await store.claimant(of: original, on: sql)
        case .restore:
            try await store.setRevoked(false, transaction: transaction.transactionId, on: sql)
            return try await store.claimant(of: original, on: sql)
        case .acknowledge, .record:
            return nil
        }
    }

    /// Tells the services that enforce the gates what `user` holds now, in the transaction that
    /// changed it. The version is taken first: it waits for another transaction of the same player,
    /// so the set read after it includes that one's change and carries the higher version.
    private func publishEntitlements(of user: UserID, on sql: any SQLDatabase) async throws {
        let version = try await store.nextEntitlementVersion(of: user, on: sql)
        let held = EntitlementRules.entitlements(
            from: try await store.transactions(of: user, on: sql), catalog: settings.catalog, at: now())
        try await outbox.append(
            PurchasesEvent.entitlementsChanged, aggregateID: user.description,
            payload: .init(userId: user, version: version, entitlements: held), on: sql)
    }

    /// Who holds the transaction: the account that claimed it, or else the one its account token names.
    private func owner(of transaction: AppStoreTransaction, on sql: any SQLDatabase) async throws -> UserID? {
        if let claimant = try await store.claimant(of: transaction.originalTransactionId, on: sql) { return claimant }
        guard let token = transaction.appAccountToken else { return nil }
        return try await store.user(withToken: token, on: sql)
    }

    private func graceEnd(of notification: AppStoreNotification, effect: NotificationEffect) async throws -> Date? {
        guard effect == .grace, let signed = notification.data?.signedRenewalInfo else { return nil }
        do {
            let renewal = try await verifier.verify(signed, as: AppStoreRenewalInfo.self)
            return renewal.gracePeriodExpiresDate.map(Date.init(appStoreMilliseconds:))
        } catch {
            throw PurchasesError.invalidTransaction("signedRenewalInfo: \(error.reason)")
        }
    }

    /// A transaction signed by the App Store for this app and environment, and (`soldHere`) for a product in the catalog.
    private func verifiedTransaction(_ signed: String, soldHere: Bool = true) async throws -> AppStoreTransaction {
        let transaction: AppStoreTransaction
        do {
            transaction = try await verifier.verify(signed, as: AppStoreTransaction.self)
        } catch {
            throw PurchasesError.invalidTransaction(error.reason)
        }
        try checkApp(bundleID: transaction.bundleId, environment: transaction.environment)
        guard !soldHere || settings.catalog.product(transaction.productId) != nil else {
            throw PurchasesError.invalidTransaction("product \(transaction.productId) is not sold here")
        }
        return transaction
    }

    private func checkApp(bundleID: String?, environment: AppStoreEnvironment?) throws {
        guard bundleID == settings.bundleID else {
            throw PurchasesError.invalidTransaction("bundleId \(bundleID ?? "absent") is not this app's")
        }
        guard environment == settings.environment else {
            throw PurchasesError.invalidTransaction(
                "environment \(environment?.rawValue ?? "absent") is not this server's (\(settings.environment.rawValue))")
        }
    }

    private func owned(_ transaction: AppStoreTransaction) -> OwnedTransaction {
        OwnedTransaction(
            transactionId: transaction.transactionId, originalTransactionId: transaction.originalTransactionId,
            productId: transaction.productId, purchasedAt: Date(appStoreMilliseconds: transaction.purchaseDate),
            expiresAt: transaction.expiresDate.map(Date.init(appStoreMilliseconds:)), revoked: transaction.revocationDate != nil)
    }
}
