import Contracts
import Foundation
import JWTKit
import NIOHTTP1
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Sessions and tokens")
struct SessionTests {
    @Test("refresh rotates the token and the old one stops working", arguments: TestStore.all)
    func rotation(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let first = try await auth.register()
            let refreshed = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: first.refreshToken))
            #expect(refreshed.status == 200)
            let second = try refreshed.decode(Session.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.user == first.user)
            #expect(try await auth.call(AuthAPI.me, token: second.accessToken).status == 200)

            let third = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: second.refreshToken))
            #expect(third.status == 200)
        }
    }

    @Test("reusing a rotated refresh token ends the whole session", arguments: TestStore.all)
    func reuseRevokesSession(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let first = try await auth.register()
            let second = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: first.refreshToken))
                .decode(Session.self)
            let replay = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: first.refreshToken))
            #expect(replay.status == 401)
            #expect(replay.problem?.code == "INVALID_REFRESH_TOKEN")
            // The legitimate holder's newer token is dead too, and so is its access token.
            let stolen = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: second.refreshToken))
            #expect(stolen.status == 401)
            #expect(try await auth.call(AuthAPI.me, token: second.accessToken).status == 401)
        }
    }

    @Test("logout revokes the refresh token and the access token at once", arguments: TestStore.all)
    func logout(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let session = try await auth.register()
            let other = try await auth.call(
                AuthAPI.login, body: LoginRequest(email: session.user.email, password: "correct horse battery")
            )
            .decode(Session.self)
            let loggedOut = try await auth.call(AuthAPI.logout, token: session.accessToken)
            #expect(loggedOut.status == 204)
            #expect(try await auth.call(AuthAPI.me, token: session.accessToken).status == 401)
            let refresh = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refresh.status == 401)
            // Another session of the same user lives on.
            #expect(try await auth.call(AuthAPI.me, token: other.accessToken).status == 200)
            #expect(try await auth.call(AuthAPI.logout).status == 401)
        }
    }

    @Test("unknown refresh tokens are refused")
    func unknownRefresh() async throws {
        try await AuthHarness.with { auth, _ in
            let response = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: "made-up"))
            #expect(response.status == 401)
        }
    }

    @Test("access tokens are EdDSA JWTs with the documented claims, verifiable with the published JWKS")
    func tokenFormat() async throws {
        try await AuthHarness.with { auth, _ in
            let session = try await auth.register()
            let jwksResponse = try await auth.raw(.GET, "/.well-known/jwks.json")
            #expect(jwksResponse.status == 200)
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: jwksResponse.text)

            struct Claims: JWTPayload {
                var sub: SubjectClaim
                var sid: String
                var exp: ExpirationClaim
                var iat: IssuedAtClaim
                var iss: IssuerClaim
                func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
            }
            let claims = try await keys.verify(session.accessToken, as: Claims.self)
            #expect(claims.sub.value == session.user.id.description)
            #expect(claims.iss.value == "huddle-auth")
            #expect(UUID(uuidString: claims.sid) != nil)
            #expect(abs(claims.exp.value.timeIntervalSince(claims.iat.value) - 900) < 1)
            let header =
                try JSONSerialization.jsonObject(
                    with: Data(base64URLEncoded: String(session.accessToken.split(separator: ".")[0]))!) as? [String: Any]
            #expect(header?["alg"] as? String == "EdDSA")
        }
    }

    @Test("tampered, foreign and missing tokens are refused with 401")
    func badTokens() async throws {
        try await AuthHarness.with { auth, _ in
            let session = try await auth.register()
            var parts = session.accessToken.split(separator: ".").map(String.init)
            // Claim to be someone else: the signature no longer matches.
            let forged = try JSONSerialization.data(withJSONObject: ["sub": UUID().uuidString.lowercased(), "sid": UUID().uuidString])
            parts[1] = forged.base64URLEncodedString()
            #expect(try await auth.call(AuthAPI.me, token: parts.joined(separator: ".")).status == 401)
            #expect(try await auth.call(AuthAPI.me, token: "garbage").status == 401)
            #expect(try await auth.call(AuthAPI.me).status == 401)

            // A token signed by another key with the same claims is refused too.
            let otherKeys = JWTKeyCollection()
            await otherKeys.add(eddsa: try EdDSA.PrivateKey(), kid: "other")
            struct Claims: JWTPayload {
                var sub: String, sid: String, exp: Int, iat: Int, iss: String
                func verify(using algorithm: some JWTAlgorithm) async throws {}
            }
            let now = Int(Date().timeIntervalSince1970)
            let foreign = try await otherKeys.sign(
                Claims(sub: session.user.id.description, sid: UUID().uuidString, exp: now + 600, iat: now, iss: "huddle-auth"))
            #expect(try await auth.call(AuthAPI.me, token: foreign).status == 401)
        }
    }

    @Test("every response carries a request id, echoed when the client sends one")
    func requestIDs() async throws {
        try await AuthHarness.with { auth, _ in
            let echoed = try await auth.call(AuthAPI.me, headers: ["X-Request-Id": "client-abc-123"])
            #expect(echoed.header("X-Request-Id") == "client-abc-123")
            let made = try await auth.raw(.GET, "/health")
            #expect(UUID(uuidString: made.header("X-Request-Id") ?? "") != nil)
        }
    }
}
