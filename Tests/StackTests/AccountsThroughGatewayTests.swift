import Configuration
import Contracts
import Foundation
import HuddleKit
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Accounts that last, as an app lives them through the gateway with HuddleKit: "Forgot password?",
/// the mailed link opened in the app, a password changed on one phone while another is signed in.
@Suite("Accounts through the gateway")
struct AccountsThroughGatewayTests {
    /// The deployed stack and its stand-in's relay (`HUDDLE_TEST_STANDIN_URL`), or an embedded stack
    /// on `store` sending to a relay made here. `body` gets the gateway and the stand-in's mailbox.
    static func withMailStack(store: TestStore, body: (TestClient, TestClient) async throws -> Void) async throws {
        if StackTests.deployedGateway != nil {
            let standIn = try #require(standInURL, "HUDDLE_TEST_STANDIN_URL names the deployed stand-in")
            return try await StackTests.withStack(store: store) { gateway in try await body(gateway, TestClient(baseURL: standIn)) }
        }
        try await withMailStandIn { settings, standIn in
            try await StackTests.withStack(store: store, config: settings) { gateway in
                try await body(gateway, TestClient(baseURL: standIn))
            }
        }
    }

    /// Whether `app`'s session has ended. Another instance of a module learns of a revocation at its
    /// next read of auth's feed (`<module>.revocation.poll.ms`), so with replicas it is a moment later.
    static func isSignedOut(_ app: HuddleClient) async -> Bool {
        do {
            _ = try await app.send(AuthAPI.me)
            return false
        } catch let error as HuddleError {
            return [.sessionEnded, .notSignedIn].contains(error.kind) || error.status == 401
        } catch {
            return false
        }
    }

    @Test(
        "a player who forgot the password asks for a reset, opens the mailed link in the app and is signed in with the new password; the old phone is signed out and the link works once",
        arguments: StackTests.stores)
    func forgottenPassword(store: TestStore) async throws {
        try await Self.withMailStack(store: store) { gateway, mailbox in
            let email = "forgetful-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let oldPhone = HuddleKitTests.client(gateway)
            try await oldPhone.register(email: email, password: "first password 1", name: "Forgetful Fred")

            let newPhone = HuddleKitTests.client(gateway)
            try await newPhone.forgotPassword(email: email)
            try await newPhone.forgotPassword(email: "nobody-\(UUID().uuidString.prefix(8).lowercased())@example.com")
            let mail = try #require(try await mailbox.mails(to: email, subject: "Reset your Huddle password", reaching: 1).first)
            let token = try mail.linkedToken()

            let user = try await newPhone.resetPassword(token: token, newPassword: "second password 2")
            #expect(user.email == email)
            #expect(try await newPhone.send(AuthAPI.me).email == email)
            #expect(try await eventually { await Self.isSignedOut(oldPhone) })
            do {
                try await HuddleKitTests.client(gateway).resetPassword(token: token, newPassword: "third password 3")
                Issue.record("the reset token worked twice")
            } catch let error as HuddleError {
                #expect(error.status == 400 && error.code == "INVALID_TOKEN")
            }
            let signIn = HuddleKitTests.client(gateway)
            try await signIn.signIn(email: email, password: "second password 2")
            try await signIn.changePassword(current: "second password 2", new: "fourth password 4")
            #expect(try await signIn.send(AuthAPI.me).email == email)
            #expect(try await mailbox.mails(to: email, subject: "Your Huddle password was changed", reaching: 2).count == 2)
        }
    }

    /// The deployed stack and its stand-in's Google (for compose's development client id), or an
    /// embedded stack trusting a stand-in made here.
    static func withGoogleStack(body: (TestClient, TestClient, String) async throws -> Void) async throws {
        let clientID = "huddle-dev.apps.googleusercontent.com"
        if StackTests.deployedGateway != nil {
            let standIn = try #require(standInURL, "HUDDLE_TEST_STANDIN_URL names the deployed stand-in")
            return try await StackTests.withStack(store: .postgres) { gateway in
                try await body(gateway, TestClient(baseURL: standIn), clientID)
            }
        }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        let google = try GoogleStandIn()
        try await withServerOnPort0({ buildProviderStandIns(reader: reader, logger: .quiet("google"), google: google, onListening: $0) }) {
            standIn in
            let config = ["auth.oauth.google.url": standIn, "auth.oauth.google.client-ids": clientID]
            try await StackTests.withStack(store: .sqlite, config: config) { gateway in
                try await body(gateway, TestClient(baseURL: standIn), clientID)
            }
        }
    }

    @Test("an Android player signs in with Google on two phones, sees both among their devices and signs the lost one out")
    func googleOnTwoPhones() async throws {
        try await Self.withGoogleStack { gateway, standIn, clientID in
            let sub = "android-\(UUID().uuidString.prefix(10))"
            func idToken() async throws -> String {
                let ask: [String: String] = ["sub": sub, "aud": clientID, "nonce": "android-nonce", "name": "Andy Droid"]
                return try expect(200, try await standIn.raw(.POST, "/test/google/id-tokens", json: ask)).decode([String: String].self)[
                    "idToken"] ?? ""
            }
            let kept = HuddleKitTests.client(gateway), lost = HuddleKitTests.client(gateway)
            let user = try await kept.signInWithGoogle(idToken: try await idToken(), nonce: "android-nonce")
            #expect(try await lost.signInWithGoogle(idToken: try await idToken(), nonce: "android-nonce").id == user.id)
            let devices = try await kept.signedInDevices()
            #expect(devices.count == 2 && devices.filter(\.current).count == 1)
            let other = try #require(devices.first { !$0.current })
            try await kept.signOut(device: other.id)
            #expect(try await eventually { await Self.isSignedOut(lost) })
            #expect(try await kept.signedInDevices().map(\.id) == devices.filter(\.current).map(\.id))
        }
    }
}
