import Contracts
import Foundation
import NIOHTTP1
import ProviderStandIns
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Deleting an account, at auth")
struct AccountDeletionTests {
    @Test(
        "without proof of a recent sign-in nothing is deleted; with the password every session ends, sign-in is refused, follows go and the email registers anew",
        arguments: TestStore.all)
    func withPassword(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let ada = try await auth.register(name: "Ada Leaving", email: "ada@example.com")
            let bo = try await auth.register(name: "Bo Staying", email: "bo@example.com")
            let phone = try await auth.value(AuthAPI.login, body: LoginRequest(email: "ada@example.com", password: "correct horse battery"))
            _ = try expect(204, try await auth.call(AuthAPI.follow, bo.user.id, token: ada.accessToken))
            _ = try expect(204, try await auth.call(AuthAPI.follow, ada.user.id, token: bo.accessToken))

            for proof in [
                DeleteAccountRequest(password: "wrong password"), DeleteAccountRequest(provider: .facebook, token: "not-a-token"),
                DeleteAccountRequest(provider: .apple, token: "e30.e30.e30"),
            ] {
                let refused = try await auth.call(AuthAPI.deleteMe, body: proof, token: ada.accessToken)
                #expect(refused.status == 401 && refused.problem?.code == "REAUTHENTICATION_REQUIRED", "\(refused.text)")
            }
            #expect(try await auth.call(AuthAPI.me, token: ada.accessToken).status == 200)

            _ = try expect(
                204,
                try await auth.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ada.accessToken)
            )
            for token in [ada.accessToken, phone.accessToken] {
                #expect(try await auth.call(AuthAPI.me, token: token).status == 401)
            }
            #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: phone.refreshToken)).status == 401)
            let signIn = try await auth.call(AuthAPI.login, body: LoginRequest(email: "ada@example.com", password: "correct horse battery"))
            #expect(signIn.status == 401 && signIn.problem?.code == "INVALID_CREDENTIALS")
            #expect(try await auth.value(AuthAPI.followers, token: bo.accessToken).items.isEmpty)
            #expect(try await auth.value(AuthAPI.following, token: bo.accessToken).items.isEmpty)
            #expect(try await auth.call(AuthAPI.profile, ada.user.id, token: bo.accessToken).status == 404)
            let anew = try expect(
                201,
                try await auth.call(
                    AuthAPI.register, body: RegisterRequest(email: "ada@example.com", password: "password two", name: "Ada Again")))
            #expect(try anew.decode(Session.self).user.id != ada.user.id)
        }
    }

    @Test("an Apple account is deleted with a fresh identity token of its own, and its refresh token is revoked at Apple")
    func withApple() async throws {
        let key = DevelopmentAppleKey()
        try await AppleStandIn.with(clientKey: key) { apple in
            let config = apple.authConfig.merging(key.settings(standInURL: apple.url, clientID: AppleStandIn.app)) { _, new in new }
            try await AuthHarness.with(config: config) { auth, _ in
                let (token, code) = try await apple.credential(sub: "del.1", rawNonce: "n")
                let session = try expect(
                    200,
                    try await auth.call(
                        AuthAPI.appleSignIn, body: AppleSignInRequest(identityToken: token, authorizationCode: code, rawNonce: "n"))
                ).decode(Session.self)
                let someoneElse = try await apple.credential(sub: "del.2", rawNonce: "m").identityToken
                let refused = try await auth.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(provider: .apple, token: someoneElse), token: session.accessToken)
                #expect(refused.status == 401 && refused.problem?.code == "REAUTHENTICATION_REQUIRED")

                let fresh = try await apple.credential(sub: "del.1", rawNonce: "k").identityToken
                _ = try expect(
                    204,
                    try await auth.call(
                        AuthAPI.deleteMe, body: DeleteAccountRequest(provider: .apple, token: fresh), token: session.accessToken))
                struct Revocations: Decodable {
                    struct Item: Decodable { let sub: String }
                    let items: [Item]
                }
                let revoked = try await apple.client.raw(.GET, "/test/apple/revocations?sub=del.1").decode(Revocations.self)
                #expect(revoked.items.map(\.sub) == ["del.1"])
                #expect(try await auth.call(AuthAPI.me, token: session.accessToken).status == 401)
            }
        }
    }

    @Test("the deletion is published once, as auth.user.deleted naming the member, for every other service to erase them")
    func published() async throws {
        try await AuthHarness.with(config: ["auth.events.subscribers": "search"]) { auth, stack in
            let ada = try await auth.register(name: "Ada Published", email: "ada.published@example.com")
            _ = try expect(
                204,
                try await auth.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ada.accessToken)
            )
            try await RecordingSubscriber.with { subscriber in
                stack.runner.directory.set(.search, url: subscriber.url)
                let deleted = try await poll {
                    subscriber.events.filter { $0.type == AuthEvent.accountDeleted.name }
                } until: {
                    !$0.isEmpty
                }
                #expect(deleted.count == 1)
                let payload = try HuddleJSON.decoder.decode(AuthEvent.AccountDeleted.self, from: try #require(deleted.first).payload)
                #expect(payload.userId == ada.user.id)
            }
        }
    }
}
