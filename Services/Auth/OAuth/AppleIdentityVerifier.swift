import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures
import ServiceHTTP

/// Checks a Sign in with Apple identity token as Apple documents it: an RS256 JWT signed by one of
/// Apple's keys (`/auth/keys`, chosen by `kid`), issued by `https://appleid.apple.com` to one of this
/// deployment's app ids, unexpired, whose `nonce` is the SHA-256 hex of the raw nonce the app made.
struct AppleIdentityVerifier: Sendable {
    struct Settings: Sendable {
        /// `https://appleid.apple.com`, or the stand-in.
        var baseURL: String
        /// The bundle ids and services ids tokens may be issued to; none: Sign in with Apple is off.
        var audiences: Set<String>
        var timeout: Duration
        /// How soon Apple's key set is asked again for a `kid` it did not have.
        var refetchAfter: Duration
    }

    static let issuer = "https://appleid.apple.com"

    let settings: Settings
    let keySet: ProviderKeySet
    let logger: Logger
    /// The module's clock, against which a token without a nonce must be recent.
    let now: @Sendable () -> Date

    init(settings: Settings, httpClient: HTTPClient, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.settings = settings
        self.logger = logger
        self.now = now
        keySet = ProviderKeySet(
            provider: "Apple", url: settings.baseURL + "/auth/keys", httpClient: httpClient, timeout: settings.timeout,
            refetchAfter: settings.refetchAfter,
            logger: logger)
    }

    /// The identity token's claims, with Apple's names. `email_verified` and `is_private_email` have
    /// been sent both as booleans and as the strings "true" and "false".
    struct Claims: JWTPayload, ProviderAudience {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim?
        var sub: SubjectClaim
        var nonce: String?
        var email: String?
        var emailVerified: LenientBool?
        var isPrivateEmail: LenientBool?

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, iat, sub, nonce, email
            case emailVerified = "email_verified", isPrivateEmail = "is_private_email"
        }

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
            guard iss.value == AppleIdentityVerifier.issuer else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer")
            }
        }
    }

    /// `rawNonce` nil: a token proving a sign-in just made (deleting an account), issued in the last ten minutes.
    func verify(_ token: String, rawNonce: String?, name: AppleSignInRequest.Name?) async throws -> ProviderIdentity {
        guard !settings.audiences.isEmpty else {
            logger.warning("Sign in with Apple attempted but auth.oauth.apple.audiences is not set")
            throw AuthError.oauthProviderUnavailable
        }
        let claims = try await keySet.verified(token, as: Claims.self, audiences: settings.audiences)
        if let rawNonce {
            let expectedNonce = SHA256.hash(data: Data(rawNonce.utf8)).map { String(format: "%02x", $0) }.joined()
            guard claims.nonce == expectedNonce else { throw AuthError.invalidProviderToken("The token was not issued for this nonce.") }
        } else {
            guard let issued = claims.iat?.value, now().timeIntervalSince(issued) < 600 else {
                throw AuthError.invalidProviderToken("The token was not issued in the last ten minutes.")
            }
        }
        // The app's word for what Apple gave it on the first sign-in, signed by no one: `Accounts`
        // holds it to the rule for names people type.
        let fullName = [name?.givenName, name?.familyName].compactMap { $0?.trimmingBlanks }.filter { !$0.isEmpty }
            .joined(separator: " ")
        // Apple vouches for the address it gives, a private relay address included; `email_verified` says so.
        let verified = claims.emailVerified?.value == true ? claims.email : nil
        return ProviderIdentity(
            providerUserID: claims.sub.value, name: fullName, verifiedEmail: verified)
    }

    /// One of Apple's server-to-server notifications about a member.
    struct AccountEvent: Decodable, Equatable {
        var type: String
        var sub: String
    }

    struct NotificationClaims: JWTPayload, ProviderAudience {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var events: String

        func verify(using algorithm: some JWTAlgorithm) throws {
            guard iss.value == AppleIdentityVerifier.issuer else {
                throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer")
            }
        }
    }

    /// A notification Apple signed for one of this deployment's app ids; its `events` read.
    func verifyNotification(_ payload: String) async throws -> AccountEvent {
        let claims = try await keySet.verified(payload, as: NotificationClaims.self, audiences: settings.audiences, what: "notification")
        guard let event = try? JSONDecoder().decode(AccountEvent.self, from: Data(claims.events.utf8)) else {
            throw AuthError.invalidProviderToken("The notification's events cannot be read.")
        }
        return event
    }
}

/// A boolean Apple sends as `true` or as `"true"`.
struct LenientBool: Codable, Sendable, Equatable {
    let value: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = flag
        } else {
            value = try container.decode(String.self).lowercased() == "true"
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
