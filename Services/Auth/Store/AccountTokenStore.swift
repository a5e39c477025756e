import Contracts
import Foundation
import SQLKit

/// Single-use tokens mailed to a player (a password reset, an address to prove), kept only as their
/// SHA-256, and the requests that mailed them, which limit how often an address or a client may ask.
protocol AccountTokenStore: Sendable {
    /// Keeps `hash` as `user`'s one live token for `purpose`: an earlier one stops working.
    /// `newEmail`: the address an address change waits to prove.
    func replace(
        hash: String, user: UserID, purpose: AccountTokenPurpose, newEmail: String?, at: Date, expiresAt: Date, on sql: any SQLDatabase
    ) async throws
    /// Spends the token: its user (and the address it proves) while it is live and unused, marking it used; nil otherwise.
    func spend(hash: String, purpose: AccountTokenPurpose, at: Date, on sql: any SQLDatabase) async throws -> SpentToken?
    func recordRequest(email: String, client: String, at: Date, on sql: any SQLDatabase) async throws
    /// How many requests `email` and `client` each made since `since`.
    func requests(email: String, client: String, since: Date, on sql: any SQLDatabase) async throws -> (email: Int, client: Int)
    /// Keeps a request whose mail is decided later, by `AccountMailRequests`.
    func queue(_ request: PendingAccountMail, on sql: any SQLDatabase) async throws
    /// The oldest requests waiting to be decided, by their `seq`.
    func pending(limit: Int, on sql: any SQLDatabase) async throws -> [Int64]
    /// Takes request `seq` out of the queue, locked until the transaction ends; nil when another
    /// instance took it first.
    func take(_ seq: Int64, on sql: any SQLDatabase) async throws -> PendingAccountMail?
    /// Forgets a deleted account's tokens and the requests made for its address.
    func erase(user: UserID, email: String, on sql: any SQLDatabase) async throws
}

enum AccountTokenPurpose: String, Sendable, CaseIterable {
    case passwordReset = "password-reset"
    /// Proves the address an account was registered with.
    case emailVerification = "email-verification"
    /// Proves a new address, which then becomes the account's.
    case emailChange = "email-change"
}

/// A mail asked for whose sending depends on other accounts: a reset for an address that may have
/// none, a new address another may hold.
struct PendingAccountMail: Sendable, Equatable {
    var purpose: AccountTokenPurpose
    /// The address asked about: the one to reset, or the one to move to.
    var email: String
    /// Who asked, when signed in (an address change).
    var user: UserID?
}

struct SpentToken: Sendable, Equatable {
    var user: UserID
    var newEmail: String?
}

extension AccountTokenStore {
    func replace(hash: String, user: UserID, purpose: AccountTokenPurpose, at: Date, expiresAt: Date, on sql: any SQLDatabase) async throws
    {
        try await replace(hash: hash, user: user, purpose: purpose, newEmail: nil, at: at, expiresAt: expiresAt, on: sql)
    }
}

struct SQLAccountTokenStore: AccountTokenStore {
    func replace(
        hash: String, user: UserID, purpose: AccountTokenPurpose, newEmail: String?, at: Date, expiresAt: Date, on sql: any SQLDatabase
    ) async throws {
        try await sql.delete(from: "account_tokens").where("user_id", .equal, SQLBind(user.description))
            .where("purpose", .equal, SQLBind(purpose.rawValue)).where("used_at", .is, SQLLiteral.null).run()
        try await sql.insert(into: "account_tokens").columns("hash", "user_id", "purpose", "new_email", "created_at", "expires_at")
            .values(
                SQLBind(hash), SQLBind(user.description), SQLBind(purpose.rawValue), SQLBind(newEmail), SQLBind(at), SQLBind(expiresAt)
            )
            .run()
    }

    func spend(hash: String, purpose: AccountTokenPurpose, at: Date, on sql: any SQLDatabase) async throws -> SpentToken? {
        guard
            let row = try await sql.select().columns("user_id", "new_email").from("account_tokens").where("hash", .equal, SQLBind(hash))
                .where("purpose", .equal, SQLBind(purpose.rawValue)).where("used_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, SQLBind(at)).for(.update).first(),
            let user = UserID(try row.decode(column: "user_id", as: String.self))
        else { return nil }
        try await sql.update("account_tokens").set("used_at", to: SQLBind(at)).where("hash", .equal, SQLBind(hash)).run()
        return SpentToken(user: user, newEmail: try row.decode(column: "new_email", as: String?.self))
    }

    func recordRequest(email: String, client: String, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "mail_requests").columns("email", "client", "requested_at")
            .values(SQLBind(email), SQLBind(client), SQLBind(at)).run()
    }

    func requests(email: String, client: String, since: Date, on sql: any SQLDatabase) async throws -> (email: Int, client: Int) {
        func count(_ column: String, _ value: String) async throws -> Int {
            try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("mail_requests")
                .where(SQLIdentifier(column), .equal, SQLBind(value)).where("requested_at", .greaterThan, SQLBind(since))
                .first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return (try await count("email", email), try await count("client", client))
    }

    func queue(_ request: PendingAccountMail, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "pending_account_mails").columns("purpose", "email", "user_id")
            .values(SQLBind(request.purpose.rawValue), SQLBind(request.email), SQLBind(request.user?.description)).run()
    }

    func pending(limit: Int, on sql: any SQLDatabase) async throws -> [Int64] {
        try await sql.select().column("seq").from("pending_account_mails").orderBy("seq").limit(limit).all()
            .map { try $0.decode(column: "seq", as: Int64.self) }
    }

    func take(_ seq: Int64, on sql: any SQLDatabase) async throws -> PendingAccountMail? {
        guard
            let row = try await sql.select().columns("purpose", "email", "user_id").from("pending_account_mails")
                .where("seq", .equal, SQLBind(seq)).for(.update).first(),
            let purpose = AccountTokenPurpose(rawValue: try row.decode(column: "purpose", as: String.self))
        else { return nil }
        try await sql.delete(from: "pending_account_mails").where("seq", .equal, SQLBind(seq)).run()
        return PendingAccountMail(
            purpose: purpose, email: try row.decode(column: "email", as: String.self),
            user: try row.decode(column: "user_id", as: String?.self).flatMap(UserID.init))
    }

    func erase(user: UserID, email: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "account_tokens").where("user_id", .equal, SQLBind(user.description)).run()
        try await sql.delete(from: "mail_requests").where("email", .equal, SQLBind(email)).run()
        try await sql.delete(from: "pending_account_mails").where("email", .equal, SQLBind(email))
            .orWhere("user_id", .equal, SQLBind(user.description)).run()
    }
}
