import Contracts
import Foundation
import HuddleEffects
import JWTKit
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The verifier against a key source that serves real Ed25519 keys, as auth's JWKS would.
@Suite("Token verifier")
struct TokenVerifierTests {
    actor KeySource: AccessKeySource {
        var jwks = JWKS(keys: [])
        var fetches = 0
        var revocations = RevokedSessions(items: [], cursor: 0)
        /// Fetches that fail before one answers, as an auth not yet listening would.
        var failuresFirst = 0

        func publish(_ key: EdDSA.PrivateKey, kid: String) {
            jwks.keys.append(
                .octetKeyPair(
                    .eddsa, identifier: JWKIdentifier(string: kid), x: key.publicKey.rawRepresentation.base64URLEncodedString(),
                    y: nil, curve: .ed25519))
        }
        func revoke(_ session: SessionID) {
            revocations = RevokedSessions(items: [.init(sessionID: session, revokedAt: Date())], cursor: revocations.cursor + 1)
        }
        func failFirst(_ count: Int) { failuresFirst = count }
        struct NotListening: Error {}
        func publicKeys() async throws -> JWKS {
            fetches += 1
            if failuresFirst > 0 {
                failuresFirst -= 1
                throw NotListening()
            }
            let answer = jwks
            // As slow as a call to auth, so that requests arriving together overlap it.
            try await Task.sleep(for: .milliseconds(20))
            return answer
        }
        func revokedSessions(after cursor: Int64) async throws -> RevokedSessions { revocations }
    }

    static func sign(_ claims: AccessClaims, with key: EdDSA.PrivateKey, kid: String) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: key, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    @Test("valid tokens pass (again from cache), expired and revoked ones do not, a new key is fetched once")
    func lifecycle() async throws {
        let source = KeySource()
        let first = try EdDSA.PrivateKey()
        await source.publish(first, kid: "k1")
        let verifier = TokenVerifier(source: source, now: Effects.system.now, keyRefetchInterval: .zero)
        let user = UserID(), session = SessionID()

        let token = try await Self.sign(
            AccessClaims(userID: user, sessionID: session, roles: [.administrator], issuedAt: Date()), with: first, kid: "k1")
        let identity = try await verifier.verify(token)
        #expect(identity == Identity(userID: user, sessionID: session, roles: [.administrator]))
        #expect(try await verifier.verify(token) == identity)
        #expect(await source.fetches == 1)

        let expired = try await Self.sign(
            AccessClaims(userID: user, sessionID: SessionID(), roles: [], issuedAt: Date().addingTimeInterval(-3600)), with: first,
            kid: "k1")
        await #expect(throws: TokenVerifier.Failure.invalid) { try await verifier.verify(expired) }

        // Rotated key: an unseen kid makes the verifier fetch the JWKS again.
        let second = try EdDSA.PrivateKey()
        await source.publish(second, kid: "k2")
        let rotated = try await Self.sign(
            AccessClaims(userID: user, sessionID: SessionID(), roles: [], issuedAt: Date()), with: second, kid: "k2")
        #expect(try await verifier.verify(rotated).userID == user)
        #expect(await source.fetches == 2)

        // A token claiming k1 but signed by another key fails, cache or not.
        let impostor = try await Self.sign(
            AccessClaims(userID: UserID(), sessionID: session, roles: [], issuedAt: Date()), with: second, kid: "k1")
        await #expect(throws: TokenVerifier.Failure.invalid) { try await verifier.verify(impostor) }

        await source.revoke(session)
        try await verifier.pollRevocations()
        await #expect(throws: TokenVerifier.Failure.revoked) { try await verifier.verify(token) }
    }

    @Test("the first tokens after a start, arriving together, all wait for the one fetch of keys and pass")
    func concurrentFirstTokens() async throws {
        let source = KeySource()
        let key = try EdDSA.PrivateKey()
        await source.publish(key, kid: "k1")
        let verifier = TokenVerifier(source: source, now: Effects.system.now)
        let tokens = try await (0..<20).asyncMap { _ in
            try await Self.sign(AccessClaims(userID: UserID(), sessionID: SessionID(), roles: [], issuedAt: Date()), with: key, kid: "k1")
        }
        let verified = await withTaskGroup(of: Bool.self) { group in
            for token in tokens { group.addTask { (try? await verifier.verify(token)) != nil } }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(verified == 20)
        #expect(await source.fetches == 1)
    }

    @Test("a first token arriving while auth does not answer yet waits for a retry of the keys and passes; auth down for longer is a 503")
    func keysRetriedBeforeRefusing() async throws {
        let source = KeySource()
        let key = try EdDSA.PrivateKey()
        await source.publish(key, kid: "k1")
        await source.failFirst(2)
        let verifier = TokenVerifier(source: source, now: Effects.system.now)
        let token = try await Self.sign(
            AccessClaims(userID: UserID(), sessionID: SessionID(), roles: [], issuedAt: Date()), with: key, kid: "k1")
        #expect(try await verifier.verify(token).sessionID != SessionID())
        #expect(await source.fetches == 3)

        let down = KeySource()
        await down.publish(key, kid: "k1")
        await down.failFirst(3)
        await #expect(throws: TokenVerifier.Failure.keysUnavailable) {
            try await TokenVerifier(source: down, now: Effects.system.now).verify(token)
        }
        #expect(await down.fetches == 3)
    }

    @Test("garbage is refused without asking for keys")
    func garbage() async throws {
        let source = KeySource()
        let verifier = TokenVerifier(source: source, now: Effects.system.now)
        await #expect(throws: TokenVerifier.Failure.malformed) { try await verifier.verify("not.a.jwt") }
        #expect(await source.fetches == 0)
    }
}
