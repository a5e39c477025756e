public import Contracts
public import Foundation
public import SQLKit
public import ServerContracts
public import ServiceHTTP
public import ServiceStore

/// Enforces the gates in force (`EntitlementGates`) for the service that owns the gated actions,
/// from its copy of the players' entitlements. With a gate off, it never reads the store.
public struct Gatekeeper: Sendable {
    public let gates: EntitlementGates
    private let held = HeldEntitlements()
    /// The clock a subscription's end is judged by: tests set it.
    private let now: @Sendable () -> Date

    public init(gates: EntitlementGates, now: @escaping @Sendable () -> Date) {
        self.gates = gates
        self.now = now
    }

    /// Whether `user` may do what `entitlement` unlocks: the gate is off, or they hold it.
    public func allows(_ entitlement: Entitlement, to user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        guard gates.isEnforced(entitlement) else { return true }
        return try await held.held(by: user, at: now(), on: sql).contains(entitlement)
    }

    /// `allows`, reading `database` only when the gate is on.
    public func allows(_ entitlement: Entitlement, to user: UserID, in database: Database) async throws -> Bool {
        guard gates.isEnforced(entitlement) else { return true }
        return try await database.read { sql in try await allows(entitlement, to: user, on: sql) }
    }

    /// Refuses with 403 `ENTITLEMENT_REQUIRED`, naming the products that unlock it, unless `allows`.
    public func require(_ entitlement: Entitlement, of user: UserID, on sql: any SQLDatabase) async throws {
        guard try await allows(entitlement, to: user, on: sql) else {
            throw EntitlementRequired(entitlement: entitlement, productIds: gates.catalog.unlocking(entitlement))
        }
    }

    /// Applies purchases' event to the copy; a service's event handlers call it.
    public func apply(_ change: PurchasesEvent.EntitlementsChanged, on sql: any SQLDatabase) async throws {
        try await held.apply(change, on: sql)
    }
}

/// 403 `ENTITLEMENT_REQUIRED`: the action is behind a gate the player has not unlocked.
public struct EntitlementRequired: ProblemError, Equatable {
    public let entitlement: Entitlement
    public let productIds: [String]

    public init(entitlement: Entitlement, productIds: [String]) {
        self.entitlement = entitlement
        self.productIds = productIds
    }

    public var problem: Problem {
        Problem(
            title: "A purchase unlocks this", status: ProblemCode.entitlementRequired.status,
            detail: localized("This needs the '\(entitlement.rawValue)' entitlement; any of productIds grants it."),
            code: ProblemCode.entitlementRequired.code, productIds: productIds)
    }
}
