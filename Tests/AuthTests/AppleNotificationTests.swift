import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Sign in with Apple's server-to-server notifications")
struct AppleNotificationTests {
    static func notification(_ apple: AppleStandIn, sub: String, type: String, aud: String = AppleStandIn.app) async throws -> String {
        struct Minted: Decodable { let payload: String }
        return try expect(
            200, try await apple.client.raw(.POST, "/test/apple/notifications", json: ["sub": sub, "type": type, "aud": aud])
        ).decode(Minted.self).payload
    }

    static func signIn(_ auth: TestClient, _ apple: AppleStandIn, sub: String) async throws -> Session {
        let token = try await apple.identityToken(sub: sub, rawNonce: "n")
        return try expect(200, try await auth.call(AuthAPI.appleSignIn, body: AppleSignInRequest(identityToken: token, rawNonce: "n")))
            .decode(Session.self)
    }

    @Test(
        "consent-revoked ends the member's sessions and unlinks Apple until they sign in with it again; account-delete deletes the account; mail forwarding is taken; a bad signature or another app's is refused",
        arguments: TestStore.all)
    func notifications(store: TestStore) async throws {
        try await AppleStandIn.with { apple in
            try await AuthHarness.with(store: store, config: apple.authConfig) { auth, _ in
                func send(_ payload: String) async throws -> TestClient.Response {
                    try await auth.call(AuthAPI.appleNotifications, body: AppleNotificationBody(payload: payload))
                }
                let revoking = try await Self.signIn(auth, apple, sub: "n.1")
                _ = try expect(200, try await send(try await Self.notification(apple, sub: "n.1", type: "consent-revoked")))
                #expect(try await auth.call(AuthAPI.me, token: revoking.accessToken).status == 401)
                // Signing in with Apple again (authorising the app anew) comes back to the same account.
                #expect(try await Self.signIn(auth, apple, sub: "n.1").user.id == revoking.user.id)

                let deleting = try await Self.signIn(auth, apple, sub: "n.2")
                for type in ["email-disabled", "email-enabled"] {
                    _ = try expect(200, try await send(try await Self.notification(apple, sub: "n.2", type: type)))
                }
                _ = try expect(200, try await send(try await Self.notification(apple, sub: "n.2", type: "account-delete")))
                #expect(try await auth.call(AuthAPI.me, token: deleting.accessToken).status == 401)
                #expect(try await Self.signIn(auth, apple, sub: "n.2").user.id != deleting.user.id)

                for refused in [
                    try await send("e30.e30.e30"),
                    try await send(try await Self.notification(apple, sub: "n.2", type: "account-delete", aud: "com.example.other")),
                ] {
                    #expect(refused.status == 401 && refused.problem?.code == "INVALID_PROVIDER_TOKEN")
                }
                // About an Apple id no member has: taken, nothing happens.
                _ = try expect(200, try await send(try await Self.notification(apple, sub: "nobody", type: "account-delete")))
            }
        }
    }
}
