import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import JWTKit
import Logging

/// Checks a Sign in with Google ID token as Google documents it ("Verify the Google ID token on your
/// server side"): an RS256 JWT signed by one of Google's keys (`/oauth2/v3/certs`, chosen by `kid`),
/// issued by `https://accounts.google.com` or `accounts.google.com` to one of this deployment's
/// client ids, unexpired, and for the nonce the app sent when it sent one.
struct GoogleIdentityVerifier: Sendable {
    struct Settings: Sendable {
        /// `https://www.googleapis.com`, or the stand-in.
        var baseURL: String
        /// The OAuth client ids (iOS, Android, web) tokens may be issued to; none: Sign in with Google is off.
        var clientIDs: Set<String>
        var timeout: Duration
        /// How soon Google's key set is asked again for a `kid` it did not have.
        var refetchAfter: Duration
    }

    static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]

    let settings: Settings
    let keySet: ProviderKeySet
    let logger: Logger
    /// The module's clock, against which a token proving a sign-in just made must be recent.
    let now: @Sendable () -> Date

    init(settings: Settings, httpClient: HTTPClient, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.settings = settings
        self.logger = logger
        self.now = now
        keySet = ProviderKeySet(
            provider: "Google", url: settings.baseURL + "/oauth2/v3/certs", httpClient: httpClient, timeout: settings.timeout,
            refetchAfter: settings.refetchAfter, logger: logger)
    }

    /// The ID token's claims, with Google's names.
    struct Claims: JWTPayload, ProviderAudience {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim?
        var sub: SubjectClaim
        var nonce: String?
        var email: String?
        var emailVerified: LenientBool?
        var name: String?
        var picture: String?

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, iat, sub, nonce, email, name, picture
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
            guard GoogleIdentityVerifier.issuers.contains(iss.value) else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer")
            }
        }
    }

    /// `nonce`: the one the app put in its request, which the token must carry; nil when it sent
    /// none. `fresh`: a token proving a sign-in just made (deleting an account), issued in the last ten minutes.
    func verify(_ token: String, nonce: String?, fresh: Bool = false) async throws -> ProviderIdentity {
        guard !settings.clientIDs.isEmpty else {
            logger.warning("Sign in with Google attempted but auth.oauth.google.client-ids is not set")
            throw AuthError.oauthProviderUnavailable
        }
        let claims = try await keySet.verified(token, as: Claims.self, audiences: settings.clientIDs)
        if let nonce, claims.nonce != nonce { throw AuthError.invalidProviderToken("The token was not issued for this nonce.") }
        if fresh {
            guard let issued = claims.iat?.value, now().timeIntervalSince(issued) < 600 else {
                throw AuthError.invalidProviderToken("The token was not issued in the last ten minutes.")
            }
        }
        let picture = claims.picture.flatMap { AuthValidation.pictureUrlProblem($0) == nil ? $0 : nil }
        return ProviderIdentity(
            providerUserID: claims.sub.value, name: claims.name ?? "",
            verifiedEmail: claims.emailVerified?.value == true ? claims.email : nil,
            pictureUrl: picture)
    }
}
