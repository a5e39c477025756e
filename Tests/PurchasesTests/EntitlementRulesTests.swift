import Contracts
import Foundation
import ServiceFeatures
import Testing

@testable import PurchasesService

@Suite("Products, entitlements and what notifications do")
struct EntitlementRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func owned(_ product: String, expires: TimeInterval? = nil, revoked: Bool = false, id: String = UUID().uuidString) -> OwnedTransaction {
        OwnedTransaction(
            transactionId: id, originalTransactionId: id, productId: product, purchasedAt: now.addingTimeInterval(-3600),
            expiresAt: expires.map(now.addingTimeInterval), revoked: revoked)
    }

    @Test("the catalog setting reads products, types and entitlements, and names an entry it cannot read")
    func catalogSetting() throws {
        let catalog = try ProductCatalog(
            parsing: "a.loc=nonConsumable:location; a.all=autoRenewable:location,join,leagues;a.coins=consumable")
        #expect(catalog.products.map(\.productId) == ["a.loc", "a.all", "a.coins"])
        #expect(catalog.product("a.all")?.entitlements == [.location, .join, .leagues] && catalog.product("a.coins")?.entitlements == [])
        #expect(catalog.unlocking(.join) == ["a.all"])
        #expect(throws: ProductCatalog.Unreadable(entry: "a.x=lifetime:location")) { try ProductCatalog(parsing: "a.x=lifetime:location") }
        #expect(throws: ProductCatalog.Unreadable(entry: "a.y=nonConsumable:teleport")) {
            try ProductCatalog(parsing: "a.y=nonConsumable:teleport")
        }
        #expect(throws: ProductCatalog.Unreadable(entry: "a.loc=consumable")) {
            try ProductCatalog(parsing: "a.loc=consumable;a.loc=consumable")
        }
        #expect(ProductCatalog.standard.unlocking(.leagues) == ["huddle.leagues", "huddle.membership.monthly"])
    }

    @Test("bought for good beats a subscription; of subscriptions the later end; expired, revoked, consumable and unknown grant nothing")
    func entitlements() throws {
        let catalog = ProductCatalog.standard
        let grants = EntitlementRules.entitlements(
            from: [
                owned("huddle.membership.monthly", expires: 86_400), owned("huddle.location"),
                owned("huddle.membership.monthly", expires: 3 * 86_400), owned("huddle.join", revoked: true), owned("gone.product"),
            ], catalog: catalog, at: now)
        #expect(
            grants == [
                EntitlementGrant(entitlement: .location, productId: "huddle.location"),
                EntitlementGrant(entitlement: .join, productId: "huddle.membership.monthly", expiresAt: now.addingTimeInterval(3 * 86_400)),
                EntitlementGrant(
                    entitlement: .leagues, productId: "huddle.membership.monthly", expiresAt: now.addingTimeInterval(3 * 86_400)),
            ])
        #expect(EntitlementRules.entitlements(from: [owned("huddle.membership.monthly", expires: -1)], catalog: catalog, at: now).isEmpty)
        #expect(EntitlementRules.entitlements(from: [owned("huddle.membership.monthly", expires: 0)], catalog: catalog, at: now).isEmpty)
        let coins = try ProductCatalog(parsing: "coins=consumable:location")
        #expect(EntitlementRules.entitlements(from: [owned("coins")], catalog: coins, at: now).isEmpty)
    }

    @Test(
        "each notification type has its effect, and an unknown one is recorded",
        arguments: [
            ("SUBSCRIBED", nil, NotificationEffect.extend), ("DID_RENEW", nil, .extend), ("OFFER_REDEEMED", nil, .extend),
            ("EXPIRED", "VOLUNTARY", .end), ("GRACE_PERIOD_EXPIRED", nil, .end), ("DID_FAIL_TO_RENEW", nil, .end),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", .grace), ("REFUND", nil, .revoke), ("REVOKE", nil, .revoke),
            ("REFUND_REVERSED", nil, .restore), ("TEST", nil, .acknowledge), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", .record),
            ("SOMETHING_NEW", nil, .record),
        ] as [(String, String?, NotificationEffect)])
    func notificationEffects(type: String, subtype: String?, effect: NotificationEffect) {
        #expect(NotificationEffect(type: type, subtype: subtype) == effect)
    }
}
