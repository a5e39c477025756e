import Contracts
import Foundation
import ProviderStandIns
import ServerContracts
import ServiceKitTesting
import Testing

/// Purchases through its API, against the stand-in App Store: transactions credited once to the
/// player they name, refused when they are not this app's, this environment's or this player's,
/// and notifications changing what they unlock.
@Suite("Purchases through the API")
struct PurchasesAPITests {
    @Test(
        "products are listed; each player has one account token; a bought unlock is theirs, once, and nobody else's",
        arguments: TestStore.all)
    func buyOnce(store: TestStore) async throws {
        try await PurchasesHarness.with(store: store) { harness in
            let products = try await harness.purchases.value(PurchasesAPI.products).items
            #expect(products.map(\.productId) == ["huddle.location", "huddle.join", "huddle.leagues", "huddle.membership.monthly"])
            let ada = try await harness.player("Ada Buyer"), bo = try await harness.player("Bo Other")
            let token = try await harness.accountToken(ada)
            #expect(try await harness.accountToken(ada) == token)
            #expect(try await harness.accountToken(bo) != token)
            #expect(try await harness.entitlements(ada).isEmpty)

            let location = try await harness.bought("huddle.location", token: token)
            let credited = try await expect(200, harness.submit(location.signedTransaction, as: ada)).decode(SubmittedTransaction.self)
            #expect(credited.entitlements == [EntitlementGrant(entitlement: .location, productId: "huddle.location")])
            // A retry credits nothing more.
            #expect(try await harness.submit(location.signedTransaction, as: ada).decode(SubmittedTransaction.self) == credited)
            #expect(try await harness.entitlements(ada) == credited.entitlements)

            // Replayed to another account: it names Ada's token, so it is refused and Bo gets nothing.
            let replayed = try await expect(422, harness.submit(location.signedTransaction, as: bo))
            #expect(replayed.problem?.code == "INVALID_TRANSACTION" && replayed.problem?.detail?.contains("appAccountToken") == true)
            // An app that sets no token: the first account to claim the purchase holds it.
            let untokened = try await harness.bought("huddle.join", token: nil)
            _ = try await expect(200, harness.submit(untokened.signedTransaction, as: bo))
            let claimed = try await expect(409, harness.submit(untokened.signedTransaction, as: ada))
            #expect(claimed.problem?.code == "TRANSACTION_CLAIMED")
            #expect(try await harness.entitlements(bo).map(\.entitlement) == [.join])
            // Two more accounts claiming one purchase at once: one holds it, the other is told it is taken.
            let cy = try await harness.player("Cy Racer"), di = try await harness.player("Di Racer")
            let contested = try await harness.bought("huddle.leagues", token: nil)
            async let first = harness.submit(contested.signedTransaction, as: cy)
            async let second = harness.submit(contested.signedTransaction, as: di)
            #expect(try await [first.status, second.status].sorted() == [200, 409])
            let holders = try await [harness.entitlements(cy), harness.entitlements(di)].filter { !$0.isEmpty }
            #expect(holders.count == 1)
            #expect(try await harness.entitlements(ada).map(\.entitlement) == [.location])
        }
    }

    @Test("another app's, the Xcode environment's, an unsold product's and an untrusted chain's transactions are refused")
    func refusals() async throws {
        try await PurchasesHarness.with { harness in
            let ada = try await harness.player("Ada Careful")
            let token = try await harness.accountToken(ada)
            let cases: [(PurchasesHarness.Signed, String)] = [
                (try await harness.bought("huddle.location", token: token, bundleId: "com.example.other"), "bundleId"),
                (try await harness.bought("huddle.location", token: token, environment: "Xcode"), "environment"),
                (try await harness.bought("huddle.location", token: token, environment: "Production"), "environment"),
                (try await harness.bought("huddle.teleport", token: token), "not sold"),
            ]
            for (signed, reason) in cases {
                let refused = try await expect(422, harness.submit(signed.signedTransaction, as: ada))
                #expect(refused.problem?.code == "INVALID_TRANSACTION" && refused.problem?.detail?.contains(reason) == true, "\(reason)")
            }
            let garbled = try await expect(422, harness.submit("a.b.c", as: ada))
            #expect(garbled.problem?.code == "INVALID_TRANSACTION")
            #expect(try await harness.entitlements(ada).isEmpty)
        }
    }

    @Test(
        "a renewal extends a subscription, an expiry ends it, a grace period keeps it; a refund removes an unlock and its reversal restores it; repeats, TEST and retired products change nothing",
        arguments: TestStore.all)
    func notifications(store: TestStore) async throws {
        try await PurchasesHarness.with(store: store) { harness in
            let ada = try await harness.player("Ada Member")
            let token = try await harness.accountToken(ada)
            let firstEnd = Date().addingTimeInterval(86_400).wholeSeconds
            let monthly = try await harness.bought("huddle.membership.monthly", token: token, expires: firstEnd)
            _ = try await expect(200, harness.submit(monthly.signedTransaction, as: ada))
            #expect(try await harness.entitlements(ada).map(\.expiresAt) == Array(repeating: firstEnd, count: 3))

            let renewal = try await harness.notification("DID_RENEW", about: monthly.transactionId)
            _ = try await expect(200, harness.notify(renewal))
            let renewed = try await harness.entitlements(ada)
            #expect(renewed.count == 3 && renewed.allSatisfy { $0.expiresAt == firstEnd.addingTimeInterval(30 * 86_400) })

            _ = try await expect(
                200, harness.notify(try await harness.notification("EXPIRED", subtype: "VOLUNTARY", about: monthly.transactionId)))
            #expect(try await harness.entitlements(ada).isEmpty)

            // A refund removes an unlock bought for good; its reversal restores it; the refund sent again changes nothing.
            let location = try await harness.bought("huddle.location", token: token)
            _ = try await expect(200, harness.submit(location.signedTransaction, as: ada))
            let refund = try await harness.notification("REFUND", about: location.transactionId)
            _ = try await expect(200, harness.notify(refund))
            #expect(try await harness.entitlements(ada).isEmpty)
            _ = try await expect(200, harness.notify(try await harness.notification("REFUND_REVERSED", about: location.transactionId)))
            #expect(try await harness.entitlements(ada).map(\.entitlement) == [.location])
            _ = try await expect(200, harness.notify(refund))
            #expect(try await harness.entitlements(ada).map(\.entitlement) == [.location])

            _ = try await expect(200, harness.notify(try await harness.notification("TEST", about: monthly.transactionId)))
            _ = try await expect(200, harness.notify(try await harness.notification("PRICE_INCREASE", about: monthly.transactionId)))
            // About a product no longer sold: taken (the App Store would otherwise send it again for days), nothing changes.
            let retired = try await harness.bought("huddle.retired.product", token: token)
            _ = try await expect(200, harness.notify(try await harness.notification("REFUND", about: retired.transactionId)))
            // Billing failed within Apple's grace period: the subscription counts until the grace ends (16 days here).
            let bo = try await harness.player("Bo Lapsing")
            let lapsing = try await harness.bought(
                "huddle.membership.monthly", token: try await harness.accountToken(bo), expires: Date().addingTimeInterval(3600))
            _ = try await expect(200, harness.submit(lapsing.signedTransaction, as: bo))
            _ = try await expect(
                200,
                harness.notify(try await harness.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", about: lapsing.transactionId)))
            let graced = try await harness.entitlements(bo)
            #expect(graced.count == 3 && graced.allSatisfy { ($0.expiresAt ?? .distantPast) > Date().addingTimeInterval(15 * 86_400) })

            let bad = try await expect(422, harness.notify("e30.e30.e30"))
            #expect(bad.problem?.code == "INVALID_TRANSACTION")
        }
    }

    @Test(
        "a phone restoring an old period of a subscription gets its latest from the App Store Server API; with a key the App Store does not know, the restore still credits what was sent",
        arguments: TestStore.all)
    func restoreFromHistory(store: TestStore) async throws {
        let key = DevelopmentAppStoreKey()
        for registered in [key.registered, DevelopmentAppStoreKey().registered] {
            try await PurchasesHarness.with(store: store, serverAPIKey: key, registered: registered) { harness in
                let ada = try await harness.player("Ada Restorer")
                let firstEnd = Date().addingTimeInterval(86_400).wholeSeconds
                let monthly = try await harness.bought(
                    "huddle.membership.monthly", token: try await harness.accountToken(ada), expires: firstEnd)
                // The App Store renews it; the notification never reaches Huddle, the old period is all the phone has.
                _ = try await harness.notification("DID_RENEW", about: monthly.transactionId)
                _ = try await expect(200, harness.submit(monthly.signedTransaction, as: ada))
                let expected = registered.publicKeyPEM == key.publicKeyPEM ? firstEnd.addingTimeInterval(30 * 86_400) : firstEnd
                #expect(try await harness.entitlements(ada).map(\.expiresAt) == Array(repeating: expected, count: 3))
            }
        }
    }

    @Test(
        "a deleted player's entitlements end; their purchase stays claimed under a pseudonym, so no new account takes it and a refund still applies",
        arguments: TestStore.all)
    func deletedAccount(store: TestStore) async throws {
        try await PurchasesHarness.with(store: store) { harness in
            let ada = try await harness.player("Ada Leaving"), bo = try await harness.player("Bo Taker")
            // Bought without an account token: only the claim says whose it is.
            let location = try await harness.bought("huddle.location", token: nil)
            _ = try await expect(200, harness.submit(location.signedTransaction, as: ada))
            let deleted = AuthEvent.AccountDeleted(userId: ada.user.id)
            for _ in 1...2 {
                try await harness.purchases.deliverEvents([(AuthEvent.accountDeleted, ada.user.id.description, deleted)], to: .purchases)
            }
            #expect(try await harness.entitlements(ada).isEmpty)
            #expect(try await expect(409, harness.submit(location.signedTransaction, as: bo)).problem?.code == "TRANSACTION_CLAIMED")
            _ = try await expect(200, harness.notify(try await harness.notification("REFUND", about: location.transactionId)))
            #expect(try await harness.entitlements(bo).isEmpty)
        }
    }
}
