import Foundation
import HuddleEffects
public import Hummingbird
import JWTKit

/// Sign in with Google, as the stand-in plays Google's side: its key set and a test control that
/// makes the ID token Google would give an app.
///
/// - `GET /oauth2/v3/certs` → Google's JWKS (RS256 keys by `kid`; after a rotation, the new one and the one before);
/// - `POST /test/google/keys/rotate` → `{kid}`: later ID tokens are signed with a new key;
/// - `POST /test/google/id-tokens {sub, email?, emailVerified?, aud, nonce?, expiresIn?, iss?, name?, picture?}` →
///   `{idToken}`, with Google's claim names; `iss` (not Google's) signs a token auth must refuse.
public final class GoogleStandIn: Sendable {
    private let keys: RotatingSigningKeys

    public init() throws { keys = try RotatingSigningKeys(prefix: "google-standin-") }

    struct NewIDToken: Decodable {
        var sub: String
        var email: String?
        var emailVerified: Bool?
        var aud: String
        var nonce: String?
        var expiresIn: Int?
        var iss: String?
        var name: String?
        var picture: String?
    }

    /// Google's ID token claims, with Google's names.
    struct IDClaims: JWTPayload {
        var iss: IssuerClaim
        var azp: String
        var aud: AudienceClaim
        var sub: SubjectClaim
        var email: String?
        var emailVerified: Bool?
        var name: String?
        var picture: String?
        var nonce: String?
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}

        enum CodingKeys: String, CodingKey {
            case iss, azp, aud, sub, email, name, picture, nonce, iat, exp
            case emailVerified = "email_verified"
        }
    }

    func idToken(_ new: NewIDToken) async throws -> String {
        let now = Effects.system.now()
        return try await keys.sign(
            IDClaims(
                iss: IssuerClaim(value: new.iss ?? "https://accounts.google.com"), azp: new.aud, aud: AudienceClaim(value: new.aud),
                sub: SubjectClaim(value: new.sub), email: new.email, emailVerified: new.email.map { _ in new.emailVerified ?? true },
                name: new.name, picture: new.picture, nonce: new.nonce, iat: IssuedAtClaim(value: now),
                exp: ExpirationClaim(value: now.addingTimeInterval(TimeInterval(new.expiresIn ?? 3600)))))
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("oauth2/v3/certs") { _, _ in try self.keys.jwksResponse() }
        router.post("test/google/keys/rotate") { _, _ in ["kid": try self.keys.rotate()] }
        router.post("test/google/id-tokens") { request, context in
            ["idToken": try await self.idToken(try await request.decode(as: NewIDToken.self, context: context))]
        }
    }
}
