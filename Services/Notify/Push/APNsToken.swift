import Foundation
import JWTKit

/// APNs's provider token: an ES256 JWT naming the key (`kid`) and the team (`iss`), issued at
/// `iat`. Apple refuses a token older than an hour and throttles one renewed more often than every
/// 20 minutes, so one token is reused and renewed once it is `renewAfter` old.
actor APNsToken {
    private let keys = JWTKeyCollection()
    private let keyID: JWKIdentifier
    private let teamID: String
    private let renewAfter: TimeInterval
    private let now: @Sendable () -> Date
    private var current: (token: String, issuedAt: Date)?
    private var signing: Task<String, any Error>?

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// `privateKeyPEM`: the `.p8` file Apple gives (a PKCS#8 P-256 key).
    init(privateKeyPEM: String, keyID: String, teamID: String, renewAfter: TimeInterval = 40 * 60, now: @escaping @Sendable () -> Date)
        async throws
    {
        self.keyID = JWKIdentifier(string: keyID)
        self.teamID = teamID
        self.renewAfter = renewAfter
        self.now = now
        await keys.add(ecdsa: try ES256PrivateKey(pem: privateKeyPEM), kid: self.keyID)
    }

    /// The token to send now: the current one, or a new one when it is `renewAfter` old (or
    /// `force`d, after APNs said it expired).
    func bearer(force: Bool = false) async throws -> String {
        let at = now()
        if !force, let current, at.timeIntervalSince(current.issuedAt) < renewAfter { return current.token }
        if let signing { return try await signing.value }
        // iat in whole seconds, as Apple reads it. Pushes sent while this one signs share it rather
        // than each renewing the token (Apple answers TooManyProviderTokenUpdates).
        let issuedAt = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
        let signing = Task { [keys, keyID, teamID] in
            try await keys.sign(Claims(iss: IssuerClaim(value: teamID), iat: IssuedAtClaim(value: issuedAt)), kid: keyID)
        }
        self.signing = signing
        defer { self.signing = nil }
        let token = try await signing.value
        current = (token, issuedAt)
        return token
    }
}
