import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Account tokens, credited transactions and received notifications.
protocol PurchaseStore: Sendable {
    /// `user`'s account token, made on first ask.
    func accountToken(of user: UserID, on sql: any SQLDatabase) async throws -> UUID
    /// The player whose account token `token` is.
    func user(withToken token: UUID, on sql: any SQLDatabase) async throws -> UserID?
    /// The account holding an original transaction id, when one does.
    func claimant(of originalTransactionId: String, on sql: any SQLDatabase) async throws -> UserID?
    /// Claims an original transaction id for `user` unless another account holds it; answers the holder.
    /// A concurrent claim of the same id waits for this transaction and then sees its holder.
    func claim(_ originalTransactionId: String, for user: UserID, on sql: any SQLDatabase) async throws -> UserID
    /// Records `transaction` for `user`, or brings a recorded one up to date (a renewal's new expiry).
    func record(_ transaction: OwnedTransaction, of user: UserID, environment: String, at: Date, on sql: any SQLDatabase) async throws
    func setRevoked(_ revoked: Bool, transaction id: String, on sql: any SQLDatabase) async throws
    /// Ends every period of a subscription (its transactions sharing `original`) no later than `at`.
    func end(original: String, at: Date, on sql: any SQLDatabase) async throws
    func transactions(of user: UserID, on sql: any SQLDatabase) async throws -> [OwnedTransaction]
    /// Moves `user`'s claims and transactions to `pseudonym` and forgets their account token.
    func pseudonymize(_ user: UserID, as pseudonym: UserID, on sql: any SQLDatabase) async throws
    /// Bumps `user`'s entitlement version and answers it; holds their row until the transaction ends.
    func nextEntitlementVersion(of user: UserID, on sql: any SQLDatabase) async throws -> Int
    /// Keeps a notification once; false when its UUID was seen before.
    func keep(_ notification: ReceivedNotification, on sql: any SQLDatabase) async throws -> Bool
}

/// A notification as kept: what it was and what was done with it.
struct ReceivedNotification: Sendable {
    var uuid: String
    var type: String
    var subtype: String?
    var effect: NotificationEffect
    var transactionId: String?
    var receivedAt: Date
    var payload: String
}

struct SQLPurchaseStore: PurchaseStore {
    private static let columns = ["transaction_id", "original_transaction_id", "product_id", "purchased_at", "expires_at", "revoked"]

    func accountToken(of user: UserID, on sql: any SQLDatabase) async throws -> UUID {
        try await sql.insert(into: "account_tokens").columns("user_id", "token")
            .values(SQLBind(user.description), SQLBind(UUID.random().lowercasedString)).ignoringConflicts(with: ["user_id"]).run()
        let token = try await sql.select().column("token").from("account_tokens").where("user_id", .equal, SQLBind(user.description))
            .first()?.decode(column: "token", as: String.self)
        guard let token, let uuid = UUID(uuidString: token) else { throw CommonError.internalError }
        return uuid
    }

    func user(withToken token: UUID, on sql: any SQLDatabase) async throws -> UserID? {
        try await sql.select().column("user_id").from("account_tokens").where("token", .equal, SQLBind(token.lowercasedString))
            .first()?.typedID("user_id")
    }

    func claimant(of originalTransactionId: String, on sql: any SQLDatabase) async throws -> UserID? {
        try await sql.select().column("user_id").from("claims")
            .where("original_transaction_id", .equal, SQLBind(originalTransactionId)).first()?.typedID("user_id")
    }

    func claim(_ originalTransactionId: String, for user: UserID, on sql: any SQLDatabase) async throws -> UserID {
        try await sql.insert(into: "claims").columns("original_transaction_id", "user_id")
            .values(SQLBind(originalTransactionId), SQLBind(user.description)).ignoringConflicts(with: ["original_transaction_id"]).run()
        guard let holder = try await claimant(of: originalTransactionId, on: sql) else { throw CommonError.internalError }
        return holder
    }

    func record(_ transaction: OwnedTransaction, of user: UserID, environment: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "transactions")
            .columns(
                "transaction_id", "original_transaction_id", "user_id", "platform", "product_id", "environment", "purchased_at",
                "expires_at", "revoked", "recorded_at"
            )
            .values(
                SQLBind(transaction.transactionId), SQLBind(transaction.originalTransactionId), SQLBind(user.description),
                SQLBind(PurchasePlatform.appStore.rawValue), SQLBind(transaction.productId), SQLBind(environment),
                SQLBind(transaction.purchasedAt), SQLBind(transaction.expiresAt), SQLBind(transaction.revoked), SQLBind(at)
            )
            .onConflict(with: ["transaction_id"]) { conflict in
                conflict.set(excludedValueOf: "expires_at").set(excludedValueOf: "revoked")
            }
            .run()
    }

    func setRevoked(_ revoked: Bool, transaction id: String, on sql: any SQLDatabase) async throws {
        try await sql.update("transactions").set("revoked", to: SQLBind(revoked)).where("transaction_id", .equal, SQLBind(id)).run()
    }

    func end(original: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("transactions").set("expires_at", to: SQLBind(at)).where("original_transaction_id", .equal, SQLBind(original))
            .where("expires_at", .greaterThan, SQLBind(at)).run()
    }

    func transactions(of user: UserID, on sql: any SQLDatabase) async throws -> [OwnedTransaction] {
        try await sql.select().columns(Self.columns).from("transactions").where("user_id", .equal, SQLBind(user.description))
            .orderBy("purchased_at").all()
            .map { row in
                OwnedTransaction(
                    transactionId: try row.decode(column: "transaction_id", as: String.self),
                    originalTransactionId: try row.decode(column: "original_transaction_id", as: String.self),
                    productId: try row.decode(column: "product_id", as: String.self),
                    purchasedAt: try row.decode(column: "purchased_at", as: Date.self),
                    expiresAt: try row.decode(column: "expires_at", as: Date?.self),
                    revoked: try row.decode(column: "revoked", as: Bool.self))
            }
    }

    func pseudonymize(_ user: UserID, as pseudonym: UserID, on sql: any SQLDatabase) async throws {
        for table in ["claims", "transactions"] {
            try await sql.update(table).set("user_id", to: SQLBind(pseudonym.description)).where(
                "user_id", .equal, SQLBind(user.description)
            )
            .run()
        }
        try await sql.delete(from: "account_tokens").where("user_id", .equal, SQLBind(user.description)).run()
    }

    func nextEntitlementVersion(of user: UserID, on sql: any SQLDatabase) async throws -> Int {
        let row = try await sql.raw(
            """
            INSERT INTO entitlement_versions (user_id, version) VALUES (\(bind: user.description), 1)
            ON CONFLICT (user_id) DO UPDATE SET version = entitlement_versions.version + 1 RETURNING version
            """
        ).first()
        guard let version = try row?.decode(column: "version", as: Int.self) else { throw CommonError.internalError }
        return version
    }

    func keep(_ notification: ReceivedNotification, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "notifications")
            .columns("notification_uuid", "type", "subtype", "effect", "transaction_id", "received_at", "payload")
            .values(
                SQLBind(notification.uuid), SQLBind(notification.type), SQLBind(notification.subtype),
                SQLBind("\(notification.effect)"), SQLBind(notification.transactionId), SQLBind(notification.receivedAt),
                SQLBind(notification.payload)
            )
            .ignoringConflicts(with: ["notification_uuid"]).returning("notification_uuid").all().isEmpty
    }
}
