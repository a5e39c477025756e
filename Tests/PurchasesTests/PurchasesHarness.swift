import AuthService
import Configuration
import Contracts
import Foundation
import Logging
import NIOHTTP1
import ProviderStandIns
import PurchasesService
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Auth and purchases on port 0, purchases trusting the stand-in App Store's root, for the app
/// `dev.huddle.app` in the sandbox; the stand-in's controls make what the App Store would send.
struct PurchasesHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.purchases,
    ]

    let stack: TestStack
    let appStore: TestClient
    var purchases: TestClient { stack.client(.purchases) }

    /// `serverAPIKey`: the key purchases signs App Store Server API tokens with (the stand-in knows `registered`).
    static func with(
        store: TestStore = .sqlite, serverAPIKey: DevelopmentAppStoreKey? = nil, registered: AppStoreServerAPIKey? = nil,
        body: (PurchasesHarness) async throws -> Void
    ) async throws {
        let appStore =
            if let registered {
                try await AppStoreStandIn(bundleID: "dev.huddle.app", serverAPIKey: registered)
            } else {
                try AppStoreStandIn(bundleID: "dev.huddle.app")
            }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({
            buildProviderStandIns(reader: reader, logger: .quiet("app-store"), appStore: appStore, onListening: $0)
        }) {
            standIn in
            var config = [
                "purchases.appstore.bundle.id": "dev.huddle.app", "purchases.appstore.environment": "Sandbox",
                "purchases.appstore.roots": try appStore.signer.rootPEM,
            ]
            config.merge(serverAPIKey?.settings(standInURL: standIn) ?? [:]) { _, new in new }
            try await TestStack.with(builders, store: store, config: config) { stack in
                try await body(PurchasesHarness(stack: stack, appStore: TestClient(baseURL: standIn)))
            }
        }
    }

    func player(_ name: String) async throws -> Session { try await stack.client(.auth).register(name: name) }

    func accountToken(_ player: Session) async throws -> UUID {
        try await purchases.value(PurchasesAPI.accountToken, token: player.accessToken).appAccountToken
    }

    struct Signed: Decodable {
        let signedTransaction: String
        let transactionId: String
    }

    /// A transaction the stand-in App Store signs, as an app receives it from StoreKit.
    func bought(_ product: String, token: UUID?, expires: Date? = nil, environment: String? = nil, bundleId: String? = nil)
        async throws -> Signed
    {
        var fields: [String: String] = ["productId": product]
        fields["appAccountToken"] = token?.uuidString
        fields["expiresDate"] = expires.map { ISO8601DateFormatter().string(from: $0) }
        fields["environment"] = environment
        fields["bundleId"] = bundleId
        return try expect(200, try await appStore.raw(.POST, "/test/appstore/transactions", json: fields)).decode(Signed.self)
    }

    /// A notification about `transaction`, signed by the stand-in App Store.
    func notification(_ type: String, subtype: String? = nil, about transaction: String) async throws -> String {
        struct Payload: Decodable { let signedPayload: String }
        var fields = ["notificationType": type, "transactionId": transaction]
        fields["subtype"] = subtype
        return try expect(200, try await appStore.raw(.POST, "/test/appstore/notifications", json: fields)).decode(Payload.self)
            .signedPayload
    }

    func submit(_ signed: String, as player: Session) async throws -> TestClient.Response {
        try await purchases.call(
            PurchasesAPI.submitAppleTransaction, body: SubmitTransaction(signedTransaction: signed), token: player.accessToken)
    }

    func notify(_ signedPayload: String) async throws -> TestClient.Response {
        try await purchases.call(PurchasesAPI.appleNotification, body: AppStoreNotificationBody(signedPayload: signedPayload))
    }

    func entitlements(_ player: Session) async throws -> [EntitlementGrant] {
        try await purchases.value(PurchasesAPI.entitlements, token: player.accessToken).items
    }
}
