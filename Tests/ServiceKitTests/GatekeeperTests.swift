import Contracts
import Foundation
import ServerContracts
import ServiceFeatures
import ServiceKitTesting
import ServiceStore
import Testing

@Suite("Purchases gates: the copy of what players hold")
struct GatekeeperTests {
    let ada = UserID()
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A gatekeeper on a fresh store whose clock the test moves.
    func withGatekeeper(
        _ store: TestStore, enforced: Set<Entitlement>, body: (Gatekeeper, Database, SettableClock) async throws -> Void
    ) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate([.heldEntitlements(version: 1)], logger: DatabaseTests.logger)
            let clock = SettableClock(start)
            let gatekeeper = Gatekeeper(gates: EntitlementGates(enforced: enforced), now: { clock.now })
            try await body(gatekeeper, database, clock)
        }
    }

    func change(_ version: Int, _ grants: [EntitlementGrant]) -> PurchasesEvent.EntitlementsChanged {
        .init(userId: ada, version: version, entitlements: grants)
    }

    @Test("a gate that is off never refuses; one that is on refuses naming the products that unlock it", arguments: TestStore.all)
    func refusal(store: TestStore) async throws {
        try await withGatekeeper(store, enforced: [.join]) { gatekeeper, database, _ in
            let ada = self.ada
            let ungated = try await database.read { sql in try await gatekeeper.allows(.location, to: ada, on: sql) }
            #expect(ungated)
            await #expect(throws: EntitlementRequired(entitlement: .join, productIds: ["huddle.join", "huddle.membership.monthly"])) {
                try await database.read { sql in try await gatekeeper.require(.join, of: ada, on: sql) }
            }
            let problem = EntitlementRequired(entitlement: .leagues, productIds: ["huddle.leagues"]).problem
            #expect(problem.status == 403 && problem.code == "ENTITLEMENT_REQUIRED" && problem.productIds == ["huddle.leagues"])
        }
    }

    @Test(
        "a subscription ends at its expiry without an event; a later set replaces an earlier one, never the reverse",
        arguments: TestStore.all)
    func expiryAndOrder(store: TestStore) async throws {
        try await withGatekeeper(store, enforced: [.location, .join]) { gatekeeper, database, clock in
            let month = start.addingTimeInterval(30 * 86_400)
            let subscribed = change(
                2,
                [
                    EntitlementGrant(entitlement: .location, productId: "huddle.membership.monthly", expiresAt: month),
                    EntitlementGrant(entitlement: .join, productId: "huddle.join"),
                ])
            func allowed(_ entitlement: Entitlement) async throws -> Bool {
                try await database.read { sql in try await gatekeeper.allows(entitlement, to: ada, on: sql) }
            }
            try await database.transaction { sql in try await gatekeeper.apply(subscribed, on: sql) }
            #expect(try await allowed(.location))
            #expect(try await allowed(.join))
            clock.set(month)
            #expect(try await !allowed(.location))
            #expect(try await allowed(.join))

            // Version 1 arrives late: it changes nothing. Version 3 (a refund) takes the join away.
            try await database.transaction { sql in try await gatekeeper.apply(change(1, []), on: sql) }
            #expect(try await allowed(.join))
            try await database.transaction { sql in try await gatekeeper.apply(change(3, []), on: sql) }
            #expect(try await !allowed(.join))
        }
    }
}
