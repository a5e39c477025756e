import Configuration
import Contracts
import Crypto
import Foundation
import HuddleKit
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// An app signs in with Apple through HuddleKit and the gateway, as the README's AuthenticationServices walk-through does.
@Suite("Sign in with Apple through the gateway")
struct AppleSignInThroughGatewayTests {
    @Test("HuddleKit signs in with what Apple gave the app, and the same Apple id comes back to the same account")
    func signIn() async throws {
        try await Self.withAppleStack { gateway, standIn, audience in
            let sub = "000777.kit\(UUID().uuidString.prefix(8).lowercased())", email = "\(sub)@privaterelay.appleid.com"
            // The app makes a raw nonce and gives Apple its SHA-256 hex; Apple puts that in the token.
            func credential(_ rawNonce: String) async throws -> String {
                struct Minted: Decodable { let identityToken: String }
                let nonce = SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
                let ask = ["sub": sub, "email": email, "aud": audience, "nonce": nonce]
                return try expect(200, try await TestClient(baseURL: standIn).raw(.POST, "/test/apple/identity-tokens", json: ask))
                    .decode(Minted.self).identityToken
            }
            let app = HuddleKitTests.client(gateway)
            let first = try await app.signInWithApple(
                identityToken: try await credential("raw-1"), authorizationCode: nil, rawNonce: "raw-1",
                name: .init(givenName: "Kit", familyName: "Apple"))
            #expect(first.name == "Kit Apple" && first.email == email)
            let phone = HuddleKitTests.client(gateway)
            let again = try await phone.signInWithApple(
                identityToken: try await credential("raw-2"), authorizationCode: nil, rawNonce: "raw-2")
            #expect(again.id == first.id)
            do {
                try await phone.signInWithApple(
                    identityToken: try await credential("raw-3"), authorizationCode: nil, rawNonce: "another")
                Issue.record("a token for another nonce was taken")
            } catch let error as HuddleError {
                #expect(error.status == 401 && error.code == "INVALID_PROVIDER_TOKEN")
            }
        }
    }

    /// The deployed stack and its stand-in, whose Apple compose trusts for `app.huddle.ios`; or an embedded
    /// stack trusting a stand-in made here for `dev.huddle.app`. `body` gets the gateway, the stand-in and
    /// the audience.
    static func withAppleStack(body: (TestClient, String, String) async throws -> Void) async throws {
        if StackTests.deployedGateway != nil {
            let standIn = try #require(standInURL, "HUDDLE_TEST_STANDIN_URL names the deployed stand-in")
            return try await StackTests.withStack(store: .postgres) { gateway in try await body(gateway, standIn, "app.huddle.ios") }
        }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        let appleID = try AppleIDStandIn()
        try await withServerOnPort0({ buildProviderStandIns(reader: reader, logger: .quiet("apple"), appleID: appleID, onListening: $0) }) {
            standIn in
            let config = ["auth.oauth.apple.url": standIn, "auth.oauth.apple.audiences": "dev.huddle.app"]
            try await StackTests.withStack(store: .sqlite, config: config) { gateway in try await body(gateway, standIn, "dev.huddle.app") }
        }
    }
}
