import Foundation
import JWTKit

/// The Sign in with Apple key Apple knows the app's team by: the public half of the `.p8` key, its
/// id, the team id and the client ids (bundle ids, services ids) codes are exchanged for.
public struct AppleClientKey: Sendable {
    public let publicKeyPEM: String
    public let keyID: String
    public let teamID: String
    public let clientIDs: Set<String>

    public init(publicKeyPEM: String, keyID: String, teamID: String, clientIDs: Set<String>) {
        self.publicKeyPEM = publicKeyPEM
        self.keyID = keyID
        self.teamID = teamID
        self.clientIDs = clientIDs
    }
}

/// What a client secret claims, as Apple reads it: the team (`iss`), the client id (`sub`), Apple
/// (`aud`), and a life of at most six months.
struct AppleClientSecretClaims: JWTPayload {
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var aud: AudienceClaim
    var sub: SubjectClaim

    func verify(using algorithm: some JWTAlgorithm) throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: "https://appleid.apple.com")
    }
}

/// Apple's `/auth/token` and `/auth/revoke` checks of a client: its secret is signed by the
/// registered key, for this team and a known client id, and lives no longer than six months.
struct AppleClientCheck: Sendable {
    let key: AppleClientKey
    let keys = JWTKeyCollection()

    static func make(_ key: AppleClientKey) async throws -> AppleClientCheck {
        let check = AppleClientCheck(key: key)
        await check.keys.add(ecdsa: try ES256PublicKey(pem: key.publicKeyPEM), kid: JWKIdentifier(string: key.keyID))
        return check
    }

    /// Whether `secret` is a client secret for `clientID`.
    func accepts(_ secret: String, for clientID: String) async -> Bool {
        guard key.clientIDs.contains(clientID), let claims = try? await keys.verify(secret, as: AppleClientSecretClaims.self) else {
            return false
        }
        return claims.iss.value == key.teamID && claims.sub.value == clientID
            && claims.exp.value.timeIntervalSince(claims.iat.value) <= 15_777_000
    }
}
