import Foundation
import HuddleEffects
import Hummingbird
import NIOConcurrencyHelpers
import NIOFoundationCompat

/// The App Store, as the stand-in plays it for development and tests: its own signing chain
/// (`AppStoreSigner`), whose root Huddle's purchases is told to trust, and controls that make what
/// the real App Store would send:
///
/// - `POST /test/appstore/transactions {productId, appAccountToken, environment?, bundleId?, purchaseDate?, expiresDate?, type?}`
///   → `{signedTransaction, transactionId, originalTransactionId}` (dates RFC 3339; a product with an
///   `expiresDate` is an auto-renewable subscription unless `type` says otherwise);
/// - `POST /test/appstore/notifications {notificationType, subtype?, transactionId}` → `{signedPayload}`: a
///   Notifications V2 body about that transaction (a subscription's latest period). `SUBSCRIBED`/`DID_RENEW` carry the next period (a
///   new transaction of the same original, a month on), `REFUND`/`REVOKE` the transaction revoked now,
///   `DID_FAIL_TO_RENEW` with `GRACE_PERIOD` renewal info with a 16-day grace period;
/// - `GET /test/appstore/root` → its root certificate (PEM), for a development deployment's purchases to trust.
///
/// With a Server API key, it also answers the App Store Server API's transaction history
/// (`AppStoreServerAPIStandIn`).
public final class AppStoreStandIn: Sendable {
    public let signer: AppStoreSigner
    public let bundleID: String
    let serverAPI: AppStoreServerAPIStandIn?
    private let transactions = NIOLockedValueBox<[String: AppStoreTransactionPayload]>([:])
    /// Transaction ids, numbers as Apple's are, counted from the start time so a restart makes new ones.
    private let lastID = NIOLockedValueBox<Int64>(Int64(Effects.system.now().timeIntervalSince1970 * 1000) * 100)

    public init(bundleID: String = "dev.huddle.app", signer: AppStoreSigner? = nil) throws {
        self.signer = try signer ?? AppStoreSigner()
        self.bundleID = bundleID
        serverAPI = nil
    }

    /// One that also answers the App Store Server API for bearer tokens signed with `serverAPIKey`.
    public init(bundleID: String = "dev.huddle.app", serverAPIKey: AppStoreServerAPIKey) async throws {
        signer = try AppStoreSigner()
        self.bundleID = bundleID
        serverAPI = try await .make(key: serverAPIKey, bundleID: bundleID)
    }

    struct NewTransaction: Decodable {
        var productId: String
        var appAccountToken: UUID?
        var environment: String?
        var bundleId: String?
        var purchaseDate: Date?
        var expiresDate: Date?
        var type: String?
    }

    struct NewNotification: Decodable {
        var notificationType: String
        var subtype: String?
        var transactionId: String
    }

    func add(to router: Router<BasicRequestContext>) {
        addServerAPI(to: router)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        router.get("test/appstore/root") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/x-pem-file"],
                body: .init(byteBuffer: ByteBuffer(string: try self.signer.rootPEM)))
        }
        router.post("test/appstore/transactions") { request, context in
            let new = try decoder.decode(NewTransaction.self, from: try await request.body.collect(upTo: 1 << 16))
            let payload = AppStoreTransactionPayload(
                transactionId: self.nextID(), bundleId: new.bundleId ?? self.bundleID, productId: new.productId,
                type: new.type ?? (new.expiresDate == nil ? "Non-Consumable" : "Auto-Renewable Subscription"),
                appAccountToken: new.appAccountToken, environment: new.environment ?? "Sandbox",
                purchaseDate: new.purchaseDate ?? Effects.system.now(),
                expiresDate: new.expiresDate)
            self.transactions.withLockedValue { $0[payload.transactionId] = payload }
            return [
                "signedTransaction": try self.signer.sign(payload), "transactionId": payload.transactionId,
                "originalTransactionId": payload.originalTransactionId,
            ]
        }
        router.post("test/appstore/notifications") { request, context in
            let new = try await request.decode(as: NewNotification.self, context: context)
            // About a subscription, the App Store speaks of its latest period.
            guard var transaction = self.latest(sharingOriginalWith: new.transactionId) else {
                throw HTTPError(.notFound, message: "no transaction \(new.transactionId) was made here")
            }
            var renewal: [String: Int64]?
            switch new.notificationType {
            case "SUBSCRIBED", "DID_RENEW":
                let periodEnd = Date(
                    timeIntervalSince1970: Double(transaction.expiresDate ?? AppStoreTransactionPayload.milliseconds(Effects.system.now()))
                        / 1000)
                transaction = AppStoreTransactionPayload(
                    transactionId: self.nextID(), originalTransactionId: transaction.originalTransactionId, bundleId: transaction.bundleId,
                    productId: transaction.productId, type: transaction.type,
                    appAccountToken: transaction.appAccountToken.flatMap(UUID.init),
                    environment: transaction.environment, purchaseDate: periodEnd, expiresDate: periodEnd.addingTimeInterval(30 * 86_400))
                self.transactions.withLockedValue { $0[transaction.transactionId] = transaction }
            case "REFUND", "REVOKE":
                transaction.revocationDate = AppStoreTransactionPayload.milliseconds(Effects.system.now())
                transaction.revocationReason = 0
            case "DID_FAIL_TO_RENEW" where new.subtype == "GRACE_PERIOD":
                renewal = [
                    "gracePeriodExpiresDate": AppStoreTransactionPayload.milliseconds(Effects.system.now().addingTimeInterval(16 * 86_400))
                ]
            default:
                break
            }
            transaction.signedDate = AppStoreTransactionPayload.milliseconds(Effects.system.now())
            return [
                "signedPayload": try self.signer.sign(
                    Notification(
                        notificationType: new.notificationType, subtype: new.subtype, notificationUUID: UUID().uuidString.lowercased(),
                        data: .init(
                            bundleId: transaction.bundleId, environment: transaction.environment,
                            signedTransactionInfo: try self.signer.sign(transaction),
                            signedRenewalInfo: try renewal.map { grace in
                                try self.signer.sign(
                                    RenewalInfo(
                                        originalTransactionId: transaction.originalTransactionId,
                                        gracePeriodExpiresDate: grace["gracePeriodExpiresDate"],
                                        signedDate: AppStoreTransactionPayload.milliseconds(Effects.system.now())))
                            }),
                        version: "2.0", signedDate: AppStoreTransactionPayload.milliseconds(Effects.system.now())))
            ]
        }
    }

    private func addServerAPI(to router: Router<BasicRequestContext>) {
        guard let serverAPI else { return }
        router.get("inApps/v2/history/:transactionId") { request, context in
            guard await serverAPI.accepts(request.headers[.authorization]) else {
                return try AppStoreServerAPIStandIn.problem(.unauthorized, code: 4010000, "Unauthenticated")
            }
            let id = context.parameters.get("transactionId") ?? ""
            guard let history = self.history(of: id) else {
                return try AppStoreServerAPIStandIn.problem(.notFound, code: 4040010, "Transaction id not found.")
            }
            let page = AppStoreServerAPIStandIn.HistoryPage(
                signedTransactions: try history.map { try self.signer.sign($0) }, hasMore: false, revision: "stand-in-\(history.count)",
                bundleId: self.bundleID, environment: history.first?.environment ?? "Sandbox")
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(page))))
        }
    }

    /// The customer's transactions, newest first: those with the account token of `id`'s, or, without
    /// one, its subscription's periods. Nil when `id` was never made here.
    private func history(of id: String) -> [AppStoreTransactionPayload]? {
        transactions.withLockedValue { transactions in
            guard let named = transactions[id] else { return nil }
            return transactions.values.filter { other in
                named.appAccountToken.map { $0 == other.appAccountToken } ?? (other.originalTransactionId == named.originalTransactionId)
            }
            .map { transaction in
                var signedNow = transaction
                signedNow.signedDate = AppStoreTransactionPayload.milliseconds(Effects.system.now())
                return signedNow
            }
            .sorted { $0.purchaseDate > $1.purchaseDate }
        }
    }

    private func latest(sharingOriginalWith id: String) -> AppStoreTransactionPayload? {
        transactions.withLockedValue { transactions in
            guard let named = transactions[id] else { return nil }
            return transactions.values.filter { $0.originalTransactionId == named.originalTransactionId }
                .max { $0.purchaseDate < $1.purchaseDate }
        }
    }

    private func nextID() -> String {
        String(
            lastID.withLockedValue { id in
                id += 1
                return id
            })
    }

    struct Notification: Encodable {
        struct Details: Encodable {
            var bundleId: String
            var environment: String
            var signedTransactionInfo: String
            var signedRenewalInfo: String?
        }

        var notificationType: String
        var subtype: String?
        var notificationUUID: String
        var data: Details
        var version: String
        var signedDate: Int64
    }

    struct RenewalInfo: Encodable {
        var originalTransactionId: String
        var gracePeriodExpiresDate: Int64?
        var signedDate: Int64
    }
}
