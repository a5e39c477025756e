import Contracts
import Crypto
import Foundation
import JWTKit
import SQLKit
import ServiceHTTP
import ServiceStore

/// Signs access tokens with auth's Ed25519 key and publishes its public half as a JWKS.
///
/// The key comes from configuration (`auth.jwt.privatekey`, base64url of the 32-byte seed) or is
/// generated on first start and kept in the store, so restarts do not sign everyone out.
actor TokenIssuer {
    private let keys = JWTKeyCollection()
    private var signingKeyID: JWKIdentifier?
    private var published = JWKS(keys: [])
    /// The clock that dates a new signing key and each token.
    let now: @Sendable () -> Date
    /// How long an access token lasts (at most `AccessClaims.lifetime`).
    let accessLifetime: TimeInterval

    init(accessLifetime: TimeInterval = AccessClaims.lifetime, now: @escaping @Sendable () -> Date) {
        self.now = now
        self.accessLifetime = min(accessLifetime, AccessClaims.lifetime)
    }

    /// Loads or creates the signing key. Call once, after migrations.
    /// The advisory lock under which the first signing key is made.
    static let keyCreationLock: Int64 = 727_301

    func prepare(configuredKey: String?, database: Database) async throws {
        let seed: String
        if let configuredKey {
            seed = configuredKey
        } else {
            // Two instances starting on an empty store must not each make a key of their own.
            seed = try await database.transaction(exclusive: Self.keyCreationLock) { sql in
                if let stored = try await sql.select().column("private_key").from("signing_keys")
                    .orderBy("created_at", .descending).first(decodingColumn: "private_key", as: String.self)
                {
                    return stored
                }
                let fresh = Curve25519.Signing.PrivateKey().rawRepresentation.base64URLEncodedString()
                try await sql.insert(into: "signing_keys").columns("kid", "private_key", "created_at")
                    .values(SQLBind(Self.keyID(forSeed: fresh)), SQLBind(fresh), SQLBind(self.now())).run()
                return fresh
            }
        }
        let privateKey = try EdDSA.PrivateKey(d: seed, curve: .ed25519)
        let kid = JWKIdentifier(string: Self.keyID(forSeed: seed))
        await keys.add(eddsa: privateKey, kid: kid)
        signingKeyID = kid
        published = JWKS(keys: [
            .octetKeyPair(
                .eddsa, identifier: kid, x: privateKey.publicKey.rawRepresentation.base64URLEncodedString(), y: nil,
                curve: .ed25519)
        ])
    }

    func accessToken(
        for user: User, session: SessionID, roles: Set<Role>, secondFactor: Bool = false, staffNeedSecondFactor: Bool = false
    ) async throws -> String {
        try await keys.sign(
            AccessClaims(
                userID: user.id, sessionID: session, roles: roles, issuedAt: now(), lifetime: accessLifetime, secondFactor: secondFactor,
                staffNeedSecondFactor: staffNeedSecondFactor),
            kid: signingKeyID)
    }

    var jwks: JWKS { published }

    /// A key id derived from the public key, so the same key always has the same id.
    static func keyID(forSeed seed: String) -> String {
        guard let data = Data(base64URLEncoded: seed),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: data)
        else { return "invalid" }
        return SHA256.hash(data: key.publicKey.rawRepresentation).prefix(8).hexString
    }
}
