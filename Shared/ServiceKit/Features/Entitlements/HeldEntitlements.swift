public import Contracts
public import Foundation
public import SQLKit
public import ServerContracts
public import ServiceStore

/// A service's copy of what each player is entitled to, kept from purchases' events
/// (`PurchasesEvent.entitlementsChanged`) in the service's own store, so a gate is checked in the
/// transaction of the action it guards and never waits on purchases. Each event carries a player's
/// whole set and a version: a set older than the one kept is dropped, whatever order events arrive in.
/// A subscription's end is kept with it and checked when read, so an expiry needs no event.
public struct HeldEntitlements: Sendable {
    public init() {}

    public func apply(_ change: PurchasesEvent.EntitlementsChanged, on sql: any SQLDatabase) async throws {
        // The version row is the player's lock: a concurrent older set waits on it, then finds it newer.
        let newer = try await sql.raw(
            """
            INSERT INTO held_entitlement_versions (user_id, version) VALUES (\(bind: change.userId.description), \(bind: change.version))
            ON CONFLICT (user_id) DO UPDATE SET version = excluded.version
            WHERE held_entitlement_versions.version < excluded.version RETURNING version
            """
        ).all()
        guard !newer.isEmpty else { return }
        try await sql.delete(from: "held_entitlements").where("user_id", .equal, SQLBind(change.userId.description)).run()
        guard !change.entitlements.isEmpty else { return }
        var insert = sql.insert(into: "held_entitlements").columns("user_id", "entitlement", "product_id", "expires_at")
        for grant in change.entitlements {
            insert = insert.values(
                SQLBind(change.userId.description), SQLBind(grant.entitlement.rawValue), SQLBind(grant.productId),
                SQLBind(grant.expiresAt))
        }
        try await insert.run()
    }

    /// What `user` holds at `moment`.
    public func held(by user: UserID, at moment: Date, on sql: any SQLDatabase) async throws -> Set<Entitlement> {
        let rows = try await sql.select().column("entitlement").from("held_entitlements")
            .where("user_id", .equal, SQLBind(user.description))
            .where { $0.where("expires_at", .is, SQLLiteral.null).orWhere("expires_at", .greaterThan, SQLBind(moment)) }
            .all()
        return Set(try rows.compactMap { Entitlement(rawValue: try $0.decode(column: "entitlement", as: String.self)) })
    }
}

extension Migration {
    /// The tables behind `HeldEntitlements`.
    public static func heldEntitlements(version: Int) -> Migration {
        Migration(version: version, name: "entitlements held, from purchases' events") { kind in
            [
                """
                CREATE TABLE held_entitlements (
                    user_id TEXT NOT NULL, entitlement TEXT NOT NULL, product_id TEXT NOT NULL, expires_at \(kind.timestamp),
                    PRIMARY KEY (user_id, entitlement))
                """,
                "CREATE TABLE held_entitlement_versions (user_id TEXT PRIMARY KEY, version BIGINT NOT NULL)",
            ]
        }
    }
}
