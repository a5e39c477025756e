import Configuration
import Foundation
import JWTKit
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The stand-in's App Store Server API refuses what Apple's refuses.
@Suite("Stand-in App Store Server API")
struct AppStoreServerAPITests {
    @Test(
        "the history answers a token signed by the registered key for this app, and 401 for none, another key, audience or app, or too long a life"
    )
    func bearerChecks() async throws {
        let key = DevelopmentAppStoreKey(), stranger = DevelopmentAppStoreKey()
        let appStore = try await AppStoreStandIn(bundleID: "dev.huddle.app", serverAPIKey: key.registered)
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({
            buildProviderStandIns(reader: reader, logger: .quiet("app-store"), appStore: appStore, onListening: $0)
        }) {
            url in
            let client = TestClient(baseURL: url)
            struct Signed: Decodable { let transactionId: String }
            let bought = try expect(
                200, try await client.raw(.POST, "/test/appstore/transactions", json: ["productId": "huddle.location"])
            ).decode(Signed.self)
            func token(
                _ signer: DevelopmentAppStoreKey, audience: String = "appstoreconnect-v1", bundle: String = "dev.huddle.app",
                life: TimeInterval = 300
            )
                async throws -> String
            {
                let keys = JWTKeyCollection()
                await keys.add(ecdsa: try ES256PrivateKey(pem: signer.privateKeyPEM), kid: JWKIdentifier(string: signer.keyID))
                let now = Date()
                return try await keys.sign(
                    AppStoreServerAPIClaims(
                        issuer: signer.issuerID, issuedAt: now, expiresAt: now.addingTimeInterval(life), audience: audience,
                        bundleID: bundle),
                    kid: JWKIdentifier(string: signer.keyID))
            }
            func status(_ bearer: String?, transaction: String = bought.transactionId) async throws -> Int {
                try await client.raw(
                    .GET, "/inApps/v2/history/\(transaction)", headers: bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:]
                ).status
            }
            // What a development deployment's purchases fetches to trust it.
            #expect(try await client.raw(.GET, "/test/appstore/root").text == appStore.signer.rootPEM)
            #expect(try await status(try await token(key)) == 200)
            #expect(try await status(try await token(key), transaction: "1") == 404)
            #expect(try await status(nil) == 401)
            #expect(try await status(try await token(stranger)) == 401)
            #expect(try await status(try await token(key, audience: "elsewhere")) == 401)
            #expect(try await status(try await token(key, bundle: "com.example.other")) == 401)
            #expect(try await status(try await token(key, life: 7200)) == 401)
        }
    }
}
