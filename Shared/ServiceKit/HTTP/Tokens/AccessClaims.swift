public import Contracts
public import Foundation
public import JWTKit

/// Claims of a Huddle access token: `sub` (user), `sid` (session), `exp`, `iat`, `iss`, `roles`.
public struct AccessClaims: JWTPayload, Equatable {
    public static let issuer = "huddle-auth"
    /// The longest an access token lasts; auth may issue shorter ones (`auth.access.lifetime.ms`).
    public static let lifetime: TimeInterval = 15 * 60

    public var sub: SubjectClaim
    public var sid: String
    public var exp: ExpirationClaim
    public var iat: IssuedAtClaim
    public var iss: IssuerClaim
    public var roles: [String]
    /// How the session signed in (RFC 8176): `pwd`, and `otp` with a second factor's code.
    public var amr: [String]?
    /// Whether staff work needs `otp` in `amr` (`auth.staff.second-factor: required`), so every module
    /// knows the deployment's rule from the token itself.
    public var sfr: Bool?

    public init(
        userID: UserID, sessionID: SessionID, roles: Set<Role>, issuedAt now: Date, lifetime: TimeInterval = Self.lifetime,
        secondFactor: Bool = false, staffNeedSecondFactor: Bool = false
    ) {
        self.amr = secondFactor ? ["pwd", "otp"] : nil
        self.sfr = staffNeedSecondFactor ? true : nil
        // NumericDate in whole seconds: some client libraries reject fractions.
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        self.sub = .init(value: userID.description)
        self.sid = sessionID.description
        self.iat = .init(value: issuedAt)
        self.exp = .init(value: issuedAt.addingTimeInterval(min(lifetime, Self.lifetime)))
        self.iss = .init(value: Self.issuer)
        self.roles = roles.map(\.rawValue).sorted()
    }

    /// The signature and the issuer; whether the token has expired is judged against the module's
    /// clock by `TokenVerifier` (JWTKit's `verifyNotExpired` would read the system's).
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        guard iss.value == Self.issuer else { throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "unknown issuer") }
    }

    /// The identity these claims prove, or nil if an id is malformed.
    public var identity: Identity? {
        guard let user = UserID(sub.value), let session = SessionID(sid) else { return nil }
        return Identity(
            userID: user, sessionID: session, roles: Set(roles.compactMap(Role.init(rawValue:))),
            secondFactor: amr?.contains("otp") == true,
            staffNeedSecondFactor: sfr == true)
    }
}
