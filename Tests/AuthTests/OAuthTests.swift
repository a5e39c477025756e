import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Sign-in with Facebook, through the real HTTP verifier and the stand-in provider")
struct OAuthTests {
    @Test("a valid token creates the account once and signs the same person in again", arguments: TestStore.all)
    func createsThenReuses(store: TestStore) async throws {
        try await StubProvider.with { stub in
            try await AuthHarness.with(store: store, config: stub.authConfig) { auth, _ in
                let token = try await stub.token(.init(userId: "fb-100", name: "Fiona Facebook", email: "fiona@example.com"))
                let first = try await auth.call(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: token))
                #expect(first.status == 200)
                let session = try first.decode(Session.self)
                #expect(session.user.name == "Fiona Facebook")
                #expect(session.user.email == "fiona@example.com")

                let again = try await stub.token(.init(userId: "fb-100", name: "Fiona Facebook", email: "fiona@example.com"))
                let second = try await auth.call(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: again)).decode(
                    Session.self)
                #expect(second.user.id == session.user.id)
                #expect(try await auth.call(AuthAPI.me, token: second.accessToken).status == 200)
            }
        }
    }

    @Test("an existing member is linked by their verified email, and friends are matched")
    func linksByEmail() async throws {
        try await StubProvider.with { stub in
            try await AuthHarness.with(config: stub.authConfig) { auth, _ in
                let member = try await auth.register(name: "Gus", email: "gus@example.com")
                let token = try await stub.token(.init(userId: "fb-200", name: "Gus on FB", email: "GUS@example.com"))
                let linked = try await auth.call(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: token)).decode(
                    Session.self)
                #expect(linked.user.id == member.user.id)
                #expect(linked.user.name == "Gus")

                let friend = try await auth.register(name: "Friend")
                let matches = try await auth.call(
                    AuthAPI.matchFriends, body: FriendMatchRequest(facebookIds: ["fb-200", "fb-999"]), token: friend.accessToken)
                #expect(matches.status == 200)
                let found = try matches.decode(FriendMatchResponse.self)
                #expect(found.items.map(\.facebookId) == ["fb-200"])
                #expect(found.items.first?.profile.id == member.user.id)

                // An id no Facebook user has (a NUL in it, on PostgreSQL a 500 before) is refused, naming it.
                for bad in ["fb\u{0}200", "", String(repeating: "9", count: 65)] {
                    let refused = try await auth.call(
                        AuthAPI.matchFriends, body: FriendMatchRequest(facebookIds: ["fb-200", bad]), token: friend.accessToken)
                    #expect(refused.status == 422, "\(bad.debugDescription)")
                    #expect(refused.problem?.errors?.map(\.field) == ["facebookIds[1]"], "\(refused.problem?.errors ?? [])")
                }
            }
        }
    }

    @Test("invalid, expired and other apps' tokens are refused with 401")
    func refusals() async throws {
        try await StubProvider.with { stub in
            try await AuthHarness.with(config: stub.authConfig) { auth, _ in
                let cases = [
                    "made-up-token",
                    try await stub.token(.init(userId: "fb-300", name: "Old", expiresIn: -60)),
                    try await stub.token(.init(userId: "fb-301", name: "Other app", appId: "someone-elses-app")),
                ]
                for token in cases {
                    let response = try await auth.call(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: token))
                    #expect(response.status == 401, "token \(token)")
                    #expect(response.problem?.code == "INVALID_OAUTH_TOKEN")
                }
                let unknownProvider = try await auth.call(AuthAPI.oauthLogin, "myspace", body: OAuthLoginRequest(accessToken: "x"))
                #expect(unknownProvider.status == 404)
            }
        }
    }

    @Test("a provider that is down gives 503, not 500")
    func providerDown() async throws {
        let config = ["auth.oauth.facebook.url": "http://127.0.0.1:1", "auth.oauth.facebook.appid": StubProvider.appID]
        try await AuthHarness.with(config: config) { auth, _ in
            let response = try await auth.call(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: "anything"))
            #expect(response.status == 503)
            #expect(response.problem?.code == "OAUTH_PROVIDER_UNAVAILABLE")
        }
    }
}
