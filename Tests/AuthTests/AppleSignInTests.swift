import Configuration
import Contracts
import Crypto
import CryptoExtras
import Foundation
import JWTKit
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The stand-in playing Apple for one test, and auth settings that trust it for two app ids.
struct AppleStandIn {
    let url: String
    var client: TestClient { TestClient(baseURL: url) }
    static let app = "dev.huddle.app"

    /// `clientKey`: the Sign in with Apple key the stand-in's token endpoint knows.
    static func with<T>(clientKey: DevelopmentAppleKey? = nil, _ body: (AppleStandIn) async throws -> T) async throws -> T {
        let appleID =
            if let clientKey {
                try await AppleIDStandIn(clientKey: clientKey.registered(clientIDs: [app]))
            } else {
                try AppleIDStandIn()
            }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        return try await withServerOnPort0({
            buildProviderStandIns(reader: reader, logger: .quiet("apple"), appleID: appleID, onListening: $0)
        }) {
            url in try await body(AppleStandIn(url: url))
        }
    }

    var authConfig: [String: String] {
        [
            "auth.oauth.apple.url": url, "auth.oauth.apple.audiences": "\(Self.app),dev.huddle.web", "auth.oauth.apple.timeout.ms": "15000",
            "auth.oauth.apple.keys.refetch.ms": "0", "providers.connect.ms": "15000",
        ]
    }

    static func sha256Hex(_ text: String) -> String { SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }

    /// An identity token and its authorization code, as Apple gives them to the app.
    func credential(sub: String, rawNonce: String) async throws -> (identityToken: String, authorizationCode: String) {
        struct Minted: Decodable {
            let identityToken: String
            let authorizationCode: String
        }
        let ask = ["sub": sub, "aud": Self.app, "nonce": Self.sha256Hex(rawNonce)]
        let minted = try expect(200, try await client.raw(.POST, "/test/apple/identity-tokens", json: ask)).decode(Minted.self)
        return (minted.identityToken, minted.authorizationCode)
    }

    /// An identity token the stand-in signs as Apple, for the SHA-256 of `rawNonce`.
    func identityToken(
        sub: String, email: String? = nil, emailVerified: Bool = true, isPrivateEmail: Bool? = nil, aud: String = app,
        rawNonce: String, expiresIn: Int? = nil, iss: String? = nil
    ) async throws -> String {
        struct Minted: Decodable { let identityToken: String }
        struct Ask: Encodable {
            var sub: String, email: String?, emailVerified: Bool, isPrivateEmail: Bool?, aud: String, nonce: String, expiresIn: Int?
            var iss: String?
        }
        let ask = Ask(
            sub: sub, email: email, emailVerified: emailVerified, isPrivateEmail: isPrivateEmail, aud: aud, nonce: Self.sha256Hex(rawNonce),
            expiresIn: expiresIn, iss: iss)
        return try expect(200, try await client.raw(.POST, "/test/apple/identity-tokens", json: ask)).decode(Minted.self).identityToken
    }

    /// The kid Apple signs with now.
    func currentKid() async throws -> String {
        struct KeySet: Decodable {
            struct Key: Decodable { let kid: String }
            let keys: [Key]
        }
        return try expect(200, try await client.raw(.GET, "/auth/keys")).decode(KeySet.self).keys.last!.kid
    }
}

@Suite("Sign in with Apple, verified against the stand-in's key set")
struct AppleSignInTests {
    static func signIn(_ auth: TestClient, _ token: String, rawNonce: String, name: AppleSignInRequest.Name? = nil) async throws
        -> TestClient.Response
    {
        try await auth.call(AuthAPI.appleSignIn, body: AppleSignInRequest(identityToken: token, rawNonce: rawNonce, name: name))
    }

    @Test(
        "a first sign-in makes the account with the name the app got, a private relay address as its email; the same Apple id signs in again; a verified email links a member",
        arguments: TestStore.all)
    func createsAndLinks(store: TestStore) async throws {
        try await AppleStandIn.with { apple in
            try await AuthHarness.with(store: store, config: apple.authConfig) { auth, _ in
                let relay = "x7q2@privaterelay.appleid.com"
                let token = try await apple.identityToken(sub: "001234.apple", email: relay, isPrivateEmail: true, rawNonce: "nonce-1")
                let first = try expect(
                    200, try await Self.signIn(auth, token, rawNonce: "nonce-1", name: .init(givenName: "Aino", familyName: "Apple"))
                ).decode(Session.self)
                #expect(first.user.name == "Aino Apple" && first.user.email == relay)
                let again = try expect(
                    200, try await Self.signIn(auth, try await apple.identityToken(sub: "001234.apple", rawNonce: "n2"), rawNonce: "n2")
                ).decode(Session.self)
                #expect(again.user.id == first.user.id && again.user.name == "Aino Apple")

                // The name is the app's to send: one no one could type is made a name, not stored as sent.
                let odd = try expect(
                    200,
                    try await Self.signIn(
                        auth, try await apple.identityToken(sub: "001235.apple", rawNonce: "n5"), rawNonce: "n5",
                        name: .init(givenName: " Ev\u{0}e\u{7F} ", familyName: String(repeating: "Ö", count: 500)))
                ).decode(Session.self)
                #expect(odd.user.name == "Eve " + String(repeating: "Ö", count: TextRule.personName.length.upperBound - 4))
                let blank = try await apple.identityToken(sub: "001236.apple", rawNonce: "n6")
                let unnamed = try expect(
                    200, try await Self.signIn(auth, blank, rawNonce: "n6", name: .init(givenName: "\u{0}", familyName: " "))
                ).decode(Session.self)
                #expect(unnamed.user.name == "Player")

                // A first sign-in sent twice at once (a second tap) makes one member.
                let tokens = try await (0..<8).asyncMap { try await apple.identityToken(sub: "001237.apple", rawNonce: "tap\($0)") }
                let taps = try await Array(tokens.enumerated()).concurrentMap { index, token in
                    try expect(200, try await Self.signIn(auth, token, rawNonce: "tap\(index)")).decode(Session.self).user.id
                }
                #expect(Set(taps).count == 1)

                let member = try await auth.register(name: "Greta", email: "greta@example.com")
                let linking = try await apple.identityToken(
                    sub: "005678.apple", email: "GRETA@example.com", aud: "dev.huddle.web", rawNonce: "n3")
                #expect(
                    try expect(200, try await Self.signIn(auth, linking, rawNonce: "n3")).decode(Session.self).user.id == member.user.id)
                // An address Apple does not say is verified links nothing: a new account with a placeholder.
                let unverified = try await apple.identityToken(
                    sub: "009999.apple", email: "greta@example.com", emailVerified: false, rawNonce: "n4")
                let stranger = try expect(200, try await Self.signIn(auth, unverified, rawNonce: "n4")).decode(Session.self)
                #expect(stranger.user.id != member.user.id && stranger.user.email == "apple-009999.apple@users.huddle.invalid")
            }
        }
    }

    @Test("after Apple rotates its key, the new key is fetched once and the sign-in goes through")
    func rotation() async throws {
        try await AppleStandIn.with { apple in
            try await AuthHarness.with(config: apple.authConfig) { auth, _ in
                _ = try expect(200, try await Self.signIn(auth, try await apple.identityToken(sub: "r.1", rawNonce: "a"), rawNonce: "a"))
                _ = try expect(200, try await apple.client.raw(.POST, "/test/apple/keys/rotate"))
                _ = try expect(200, try await Self.signIn(auth, try await apple.identityToken(sub: "r.1", rawNonce: "b"), rawNonce: "b"))
            }
        }
    }

    @Test(
        "each way an identity token is wrong is refused with INVALID_PROVIDER_TOKEN: audience, issuer, expiry, nonce, an unknown kid, another key, alg none, HS256 with the public key, a tampered payload",
        arguments: TestStore.all)
    func refusals(store: TestStore) async throws {
        try await AppleStandIn.with { apple in
            try await AuthHarness.with(store: store, config: apple.authConfig) { auth, _ in
                let good = try await apple.identityToken(sub: "w.1", email: "w@example.com", rawNonce: "raw")
                let parts = good.split(separator: ".").map(String.init)
                let kid = try await apple.currentKid()
                func forged(header: [String: String], payload: String = parts[1], signature: String = "") throws -> String {
                    let head = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]).base64URLEncodedString()
                    return "\(head).\(payload).\(signature)"
                }
                // Another RSA key, signing under Apple's kid and under one Apple never had.
                let stranger = JWTKeyCollection()
                let strangerKey = try JWTKit.Insecure.RSA.PrivateKey(pem: try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation)
                await stranger.add(rsa: strangerKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                await stranger.add(rsa: strangerKey, digestAlgorithm: .sha256, kid: "not-apples")
                let payloadData = try #require(Data(base64URLEncoded: parts[1]))
                let payload = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
                struct Raw: JWTPayload {
                    let claims: [String: String]
                    let exp: Int
                    func verify(using algorithm: some JWTAlgorithm) throws {}
                    func encode(to encoder: any Encoder) throws {
                        var container = encoder.container(keyedBy: Key.self)
                        for (name, value) in claims { try container.encode(value, forKey: Key(name)) }
                        try container.encode(exp, forKey: Key("exp"))
                    }
                    init(from decoder: any Decoder) throws { fatalError("only signed") }
                    init(claims: [String: String], exp: Int) {
                        self.claims = claims
                        self.exp = exp
                    }
                    struct Key: CodingKey {
                        var stringValue: String
                        var intValue: Int? { nil }
                        init(_ name: String) { stringValue = name }
                        init?(stringValue: String) { self.stringValue = stringValue }
                        init?(intValue: Int) { nil }
                    }
                }
                let claims = Raw(
                    claims: [
                        "iss": "https://appleid.apple.com", "aud": AppleStandIn.app, "sub": "w.1", "nonce": AppleStandIn.sha256Hex("raw"),
                    ],
                    exp: Int(try #require(payload["exp"] as? NSNumber).doubleValue))
                let underApplesKid = try await stranger.sign(claims, kid: JWKIdentifier(string: kid))
                let unknownKid = try await stranger.sign(claims, kid: "not-apples")
                let hmacSecret = SymmetricKey(data: Data(try await apple.client.raw(.GET, "/auth/keys").text.utf8))
                let hsSigningInput = try forged(header: ["alg": "HS256", "kid": kid], signature: "").dropLast()
                let hsSignature = Data(HMAC<SHA256>.authenticationCode(for: Data(hsSigningInput.utf8), using: hmacSecret))
                    .base64URLEncodedString()
                var tamperedPayload = payload
                tamperedPayload["sub"] = "someone.else"
                let tampered = [
                    parts[0], try JSONSerialization.data(withJSONObject: tamperedPayload, options: [.sortedKeys]).base64URLEncodedString(),
                    parts[2],
                ].joined(separator: ".")

                let cases: [(String, String, String)] = [
                    ("another app", try await apple.identityToken(sub: "w.1", aud: "com.example.other", rawNonce: "raw"), "raw"),
                    ("another issuer", try await apple.identityToken(sub: "w.1", rawNonce: "raw", iss: "https://evil.example"), "raw"),
                    ("expired", try await apple.identityToken(sub: "w.1", rawNonce: "raw", expiresIn: -60), "raw"),
                    ("another nonce", good, "not-the-raw-nonce"),
                    ("an unknown kid", unknownKid, "raw"),
                    ("another key under Apple's kid", underApplesKid, "raw"),
                    ("alg none", try forged(header: ["alg": "none", "kid": kid]), "raw"),
                    ("HS256 with the public key as secret", String(hsSigningInput) + "." + hsSignature, "raw"),
                    ("a tampered payload", tampered, "raw"),
                    ("not a JWT", "e30", "raw"),
                ]
                for (what, token, rawNonce) in cases {
                    let refused = try await Self.signIn(auth, token, rawNonce: rawNonce)
                    #expect(
                        refused.status == 401 && refused.problem?.code == "INVALID_PROVIDER_TOKEN",
                        "\(what): \(refused.status) \(refused.text)")
                }
                _ = try expect(200, try await Self.signIn(auth, good, rawNonce: "raw"))
            }
        }
    }

    @Test("Apple's key set out of reach answers 503 at once, never a hang")
    func appleDown() async throws {
        let config = [
            "auth.oauth.apple.url": "http://127.0.0.1:9", "auth.oauth.apple.audiences": AppleStandIn.app,
        ]
        try await AuthHarness.with(config: config) { auth, _ in
            let refused = try await Self.signIn(auth, "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.e30.c2ln", rawNonce: "raw")
            #expect(refused.status == 503 && refused.problem?.code == "OAUTH_PROVIDER_UNAVAILABLE")
        }
    }

    @Test(
        "the authorization code is exchanged at Apple with auth's client secret, once; a secret from a key Apple does not know is refused")
    func codeExchange() async throws {
        let key = DevelopmentAppleKey()
        try await AppleStandIn.with(clientKey: key) { apple in
            for (signer, accepted) in [(key, true), (DevelopmentAppleKey(), false)] {
                let config = apple.authConfig.merging(signer.settings(standInURL: apple.url, clientID: AppleStandIn.app)) { _, new in new }
                try await AuthHarness.with(config: config) { auth, _ in
                    let (token, code) = try await apple.credential(sub: "code.1", rawNonce: "n")
                    let request = AppleSignInRequest(identityToken: token, authorizationCode: code, rawNonce: "n")
                    let first = try await auth.call(AuthAPI.appleSignIn, body: request)
                    #expect(first.status == (accepted ? 200 : 401), "\(first.text)")
                    guard accepted else { return }
                    // Codes are good once.
                    let again = try await auth.call(AuthAPI.appleSignIn, body: request)
                    #expect(again.status == 401 && again.problem?.code == "INVALID_PROVIDER_TOKEN")
                }
            }
        }
    }
}
