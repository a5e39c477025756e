import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// An app buys and restores through HuddleKit and the gateway, against the stand-in App Store,
/// as the README's StoreKit 2 walk-through does.
@Suite("Purchases through the gateway")
struct PurchasesThroughGatewayTests {
    @Test(
        "the app gets its account token, submits what StoreKit gave it, holds the unlocks, restores them on another phone, and reads a refusal",
        arguments: StackTests.stores)
    func buyAndRestore(store: TestStore) async throws {
        try await Self.withPurchasesStack(store: store) { gateway, standIn in
            let email = HuddleKitTests.email()
            let app = HuddleKitTests.client(gateway)
            try await app.register(email: email, password: "kit password 1", name: "Kit Buyer")
            #expect(try await app.products().map(\.productId).contains("huddle.membership.monthly"))
            let token = try await app.appAccountToken()

            // What StoreKit hands the app after `product.purchase(options: [.appAccountToken(token)])`.
            struct Signed: Decodable { let signedTransaction: String }
            let fields = [
                "productId": "huddle.membership.monthly", "appAccountToken": token.uuidString,
                "expiresDate": ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * 86_400)),
            ]
            let signed = try expect(200, try await standIn.raw(.POST, "/test/appstore/transactions", json: fields))
                .decode(Signed.self).signedTransaction
            let grants = try await app.submitPurchase(signedTransaction: signed)
            #expect(grants.map(\.entitlement) == [.location, .join, .leagues])
            #expect(try await app.entitlements() == grants)

            // The same player on a new phone restores what StoreKit lists as current.
            let phone = HuddleKitTests.client(gateway)
            try await phone.signIn(email: email, password: "kit password 1")
            #expect(try await phone.restorePurchases(signedTransactions: [signed]) == grants)

            do {
                try await app.submitPurchase(signedTransaction: "e30.e30.e30")
                Issue.record("a garbled transaction was taken")
            } catch let error as HuddleError {
                #expect(error.status == 422 && error.code == "INVALID_TRANSACTION")
            }
        }
    }

    /// The stack and its stand-in App Store: the deployed one's (`HUDDLE_TEST_STANDIN_URL`), or an embedded
    /// stack with `config` whose purchases trusts a stand-in made here; `body` gets the gateway and the stand-in.
    static func withPurchasesStack(
        store: TestStore, config: [String: String] = [:], adminEmail: String = StackTests.adminEmail,
        body: (TestClient, TestClient) async throws -> Void
    ) async throws {
        if StackTests.deployedGateway != nil {
            let standIn = TestClient(baseURL: try #require(standInURL, "HUDDLE_TEST_STANDIN_URL names the deployed stand-in"))
            return try await StackTests.withStack(store: store) { gateway in try await body(gateway, standIn) }
        }
        let appStore = try AppStoreStandIn(bundleID: "dev.huddle.app")
        let standInSettings = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({
            buildProviderStandIns(reader: standInSettings, logger: Logger(label: "stand-in"), appStore: appStore, onListening: $0)
        }) { standIn in
            let trusting = config.merging([
                "purchases.appstore.bundle.id": "dev.huddle.app", "purchases.appstore.environment": "Sandbox",
                "purchases.appstore.roots": try appStore.signer.rootPEM,
            ]) { _, new in new }
            try await StackTests.withStack(store: store, adminEmail: adminEmail, config: trusting) { gateway in
                try await body(gateway, TestClient(baseURL: standIn))
            }
        }
    }
}
