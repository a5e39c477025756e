import Configuration
import Contracts
import Foundation
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The stand-in playing Google for one test, and auth settings that trust it for two client ids.
struct GoogleStandInHarness {
    let url: String
    var client: TestClient { TestClient(baseURL: url) }
    static let clientID = "huddle-test.apps.googleusercontent.com"

    static func with<T>(_ body: (GoogleStandInHarness) async throws -> T) async throws -> T {
        let google = try GoogleStandIn()
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        return try await withServerOnPort0({
            buildProviderStandIns(reader: reader, logger: .quiet("google"), google: google, onListening: $0)
        }) {
            url in try await body(GoogleStandInHarness(url: url))
        }
    }

    var authConfig: [String: String] {
        [
            "auth.oauth.google.url": url, "auth.oauth.google.client-ids": "\(Self.clientID),huddle-test-web.apps.googleusercontent.com",
            "auth.oauth.google.timeout.ms": "15000", "auth.oauth.google.keys.refetch.ms": "0", "providers.connect.ms": "15000",
        ]
    }

    struct Ask: Encodable {
        var sub: String
        var email: String?
        var emailVerified: Bool?
        var aud: String = GoogleStandInHarness.clientID
        var nonce: String?
        var expiresIn: Int?
        var iss: String?
        var name: String?
    }

    func idToken(_ ask: Ask) async throws -> String {
        try expect(200, try await client.raw(.POST, "/test/google/id-tokens", json: ask)).decode([String: String].self)["idToken"] ?? ""
    }
}

@Suite("Sign in with Google, against the stand-in's keys")
struct GoogleSignInTests {
    static func signIn(_ auth: TestClient, _ token: String, nonce: String? = nil) async throws -> TestClient.Response {
        try await auth.call(AuthAPI.googleSignIn, body: GoogleSignInRequest(idToken: token, nonce: nonce))
    }

    @Test(
        "a Google ID token signs in, the same Google account always to the same member, linked by its verified email; its nonce must match",
        arguments: TestStore.all)
    func signsIn(store: TestStore) async throws {
        try await GoogleStandInHarness.with { google in
            try await AuthHarness.with(store: store, config: google.authConfig) { auth, _ in
                let email = PasswordResetTests.address("gail"), sub = "g-\(UUID().uuidString.prefix(10))"
                let existing = try await auth.register(name: "Gail", email: email, password: "gail password 1")
                let token = try await google.idToken(.init(sub: sub, email: email, nonce: "n-1", name: "Gail Google"))
                let first = try expect(200, try await Self.signIn(auth, token, nonce: "n-1")).decode(Session.self)
                #expect(first.user.id == existing.user.id)
                #expect(try await auth.value(AuthAPI.me, token: first.accessToken).emailVerified)
                let later = try await google.idToken(.init(sub: sub, email: "another-\(email)"))
                #expect(try expect(200, try await Self.signIn(auth, later)).decode(Session.self).user.id == existing.user.id)

                let wrongNonce = try await Self.signIn(auth, token, nonce: "n-2")
                #expect(wrongNonce.status == 401 && wrongNonce.problem?.code == "INVALID_PROVIDER_TOKEN")
                let newcomer = try await google.idToken(.init(sub: "g-\(UUID().uuidString.prefix(10))", name: "Nova"))
                let made = try expect(200, try await Self.signIn(auth, newcomer)).decode(Session.self)
                #expect(made.user.name == "Nova" && made.user.id != existing.user.id)
            }
        }
    }

    @Test(
        "a token for another app, from another issuer, expired, unverified by Google's keys or not a JWT is refused; a rotated key is taken"
    )
    func refusals() async throws {
        try await GoogleStandInHarness.with { google in
            try await AuthHarness.with(config: google.authConfig) { auth, _ in
                let sub = "g-\(UUID().uuidString.prefix(10))"
                let refused = [
                    try await google.idToken(.init(sub: sub, aud: "someone-else.apps.googleusercontent.com")),
                    try await google.idToken(.init(sub: sub, iss: "https://accounts.evil.example")),
                    try await google.idToken(.init(sub: sub, expiresIn: -60)),
                    "not.a.jwt", "",
                ]
                for token in refused.dropLast() {
                    let answer = try await Self.signIn(auth, token)
                    #expect(answer.status == 401 && answer.problem?.code == "INVALID_PROVIDER_TOKEN", "\(token.prefix(20))")
                }
                #expect(try await Self.signIn(auth, "").status == 422)
                // Signed by a key Google never published (another stand-in's), under a kid of the right shape.
                let forged = try await GoogleStandInHarness.with { other in try await other.idToken(.init(sub: sub)) }
                #expect(try await Self.signIn(auth, forged).status == 401)

                _ = try expect(200, try await google.client.raw(.POST, "/test/google/keys/rotate"))
                let rotated = try await google.idToken(.init(sub: sub))
                #expect(try await Self.signIn(auth, rotated).status == 200)
            }
        }
    }

    @Test("a Google account deletes itself with a fresh ID token")
    func deletes() async throws {
        try await GoogleStandInHarness.with { google in
            try await AuthHarness.with(config: google.authConfig) { auth, _ in
                let sub = "g-\(UUID().uuidString.prefix(10))"
                let session = try expect(200, try await Self.signIn(auth, try await google.idToken(.init(sub: sub)))).decode(Session.self)
                let other = try await google.idToken(.init(sub: "g-someone-else"))
                let refused = try await auth.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(provider: .google, token: other), token: session.accessToken)
                #expect(refused.status == 401 && refused.problem?.code == "REAUTHENTICATION_REQUIRED")
                _ = try expect(
                    204,
                    try await auth.call(
                        AuthAPI.deleteMe, body: DeleteAccountRequest(provider: .google, token: try await google.idToken(.init(sub: sub))),
                        token: session.accessToken))
            }
        }
    }
}
