import Crypto
import CryptoExtras
import Foundation
import HuddleEffects
import Hummingbird
import JWTKit
import NIOConcurrencyHelpers
import NIOFoundationCompat

/// Sign in with Apple, as the stand-in plays Apple's side: its key set and test controls that make
/// what Apple would give an app.
///
/// - `GET /auth/keys` → Apple's JWKS (RS256 keys by `kid`; after a rotation, the new one and the one before);
/// - `POST /test/apple/keys/rotate` → `{kid}`: later identity tokens are signed with a new key;
/// - `POST /test/apple/identity-tokens {sub, email?, emailVerified?, isPrivateEmail?, aud, nonce, expiresIn?}` →
///   `{identityToken, authorizationCode}`. `nonce` goes into the token as given: what the app passed
///   to Apple, the SHA-256 hex of its raw nonce. `email_verified` is sent as a string and
///   `is_private_email` as a boolean, the two forms Apple's tokens have used. `iss` (not Apple's) signs
///   one for another issuer. The authorization code is good once at `/auth/token` for the token's audience;
/// - with a client key (`AppleClientKey`): `POST /auth/token` (form: `client_id`, `client_secret`, `code`,
///   `grant_type=authorization_code`) → `{access_token, token_type, expires_in, refresh_token, id_token}`, or
///   400 `{"error": "invalid_client" | "invalid_grant"}`; `POST /auth/revoke` (form: `client_id`,
///   `client_secret`, `token`, `token_type_hint`) → 200, recording a refresh token's revocation;
/// - `GET /test/apple/revocations?sub=` → `{items: [{sub, clientId, at}]}`;
/// - `POST /test/apple/notifications {sub, type, aud?}` → `{payload}`: a server-to-server notification
///   (`consent-revoked`, `account-delete`, `email-disabled`, `email-enabled`) signed with the current key,
///   its `events` a JSON string as Apple sends it.
public final class AppleIDStandIn: Sendable {
    private let keys: RotatingSigningKeys
    private let client: AppleClientCheck?
    /// Codes not yet exchanged, with the token they came with; refresh tokens issued, by token.
    private let codes = NIOLockedValueBox<[String: (sub: String, aud: String, identityToken: String)]>([:])
    private let refreshTokens = NIOLockedValueBox<[String: (sub: String, clientID: String)]>([:])
    private let revocations = NIOLockedValueBox<[Revocation]>([])

    struct Revocation: Encodable {
        let sub: String
        let clientId: String
        let at: Date
    }

    public init() throws {
        client = nil
        keys = try RotatingSigningKeys(prefix: "standin-")
    }

    /// One that also exchanges codes and revokes tokens for clients of `clientKey`.
    public init(clientKey: AppleClientKey) async throws {
        client = try await .make(clientKey)
        keys = try RotatingSigningKeys(prefix: "standin-")
    }

    struct NewIdentityToken: Decodable {
        var sub: String
        var email: String?
        var emailVerified: Bool?
        var isPrivateEmail: Bool?
        var aud: String
        var nonce: String
        var expiresIn: Int?
        /// Another issuer than Apple's, to see it refused.
        var iss: String?
    }

    /// Apple's identity token claims, with Apple's names.
    struct IdentityClaims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var sub: SubjectClaim
        var nonce: String
        var nonceSupported: Bool
        var email: String?
        var emailVerified: String?
        var isPrivateEmail: Bool?
        var authTime: Int
        func verify(using algorithm: some JWTAlgorithm) throws {}

        enum CodingKeys: String, CodingKey {
            case iss, aud, exp, iat, sub, nonce, email
            case nonceSupported = "nonce_supported", emailVerified = "email_verified", isPrivateEmail = "is_private_email"
            case authTime = "auth_time"
        }
    }

    func identityToken(_ new: NewIdentityToken) async throws -> String {
        let now = Effects.system.now()
        return try await keys.sign(
            IdentityClaims(
                iss: IssuerClaim(value: new.iss ?? "https://appleid.apple.com"), aud: AudienceClaim(value: new.aud),
                exp: ExpirationClaim(value: now.addingTimeInterval(TimeInterval(new.expiresIn ?? 600))), iat: IssuedAtClaim(value: now),
                sub: SubjectClaim(value: new.sub), nonce: new.nonce, nonceSupported: true, email: new.email,
                emailVerified: new.email.map { _ in (new.emailVerified ?? true) ? "true" : "false" }, isPrivateEmail: new.isPrivateEmail,
                authTime: Int(now.timeIntervalSince1970)))
    }

    /// Apple's server-to-server notification claims: `events` is JSON inside a string.
    struct NotificationClaims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var jti: IDClaim
        var events: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    func notification(sub: String, type: String, aud: String) async throws -> String {
        let now = Effects.system.now()
        var event: [String: Any] = ["type": type, "sub": sub, "event_time": Int(now.timeIntervalSince1970 * 1000)]
        if type.hasPrefix("email-") {
            event["email"] = "\(sub)@privaterelay.appleid.com"
            event["is_private_email"] = "true"
        }
        let events = String(decoding: try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
        return try await keys.sign(
            NotificationClaims(
                iss: "https://appleid.apple.com", aud: AudienceClaim(value: aud), iat: IssuedAtClaim(value: now),
                jti: IDClaim(value: UUID().uuidString.lowercased()), events: events))
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("auth/keys") { _, _ in try self.keys.jwksResponse() }
        router.post("test/apple/keys/rotate") { _, _ in ["kid": try self.keys.rotate()] }
        router.post("test/apple/identity-tokens") { request, context in
            let new = try await request.decode(as: NewIdentityToken.self, context: context)
            let token = try await self.identityToken(new)
            let code = "c" + UUID().uuidString.lowercased()
            self.codes.withLockedValue { $0[code] = (new.sub, new.aud, token) }
            return ["identityToken": token, "authorizationCode": code]
        }
        router.post("test/apple/notifications") { request, context in
            struct Ask: Decodable {
                var sub: String
                var type: String
                var aud: String?
            }
            let ask = try await request.decode(as: Ask.self, context: context)
            return ["payload": try await self.notification(sub: ask.sub, type: ask.type, aud: ask.aud ?? "dev.huddle.app")]
        }
        router.get("test/apple/revocations") { request, _ in
            let sub = request.uri.queryParameters.get("sub")
            let items = self.revocations.withLockedValue { $0.filter { sub == nil || $0.sub == sub } }
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(["items": items]))))
        }
        guard let client else { return }
        router.post("auth/token") { request, _ in
            let form = try await Self.form(request)
            guard let clientID = form["client_id"], await client.accepts(form["client_secret"] ?? "", for: clientID) else {
                return try Self.oauthError("invalid_client")
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"],
                let issued = self.codes.withLockedValue({ $0.removeValue(forKey: code) }), issued.aud == clientID
            else { return try Self.oauthError("invalid_grant") }
            let refresh = "r" + UUID().uuidString.lowercased()
            self.refreshTokens.withLockedValue { $0[refresh] = (issued.sub, clientID) }
            let body: [String: Any] = [
                "access_token": "a" + UUID().uuidString.lowercased(), "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": refresh, "id_token": issued.identityToken,
            ]
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: body))))
        }
        router.post("auth/revoke") { request, _ in
            let form = try await Self.form(request)
            guard let clientID = form["client_id"], await client.accepts(form["client_secret"] ?? "", for: clientID) else {
                return try Self.oauthError("invalid_client")
            }
            // Apple answers 200 whether or not it knew the token.
            if let token = form["token"], let owner = self.refreshTokens.withLockedValue({ $0.removeValue(forKey: token) }),
                owner.clientID == clientID
            {
                self.revocations.withLockedValue { $0.append(Revocation(sub: owner.sub, clientId: clientID, at: Effects.system.now())) }
            }
            return Response(status: .ok)
        }
    }

    static func form(_ request: Request) async throws -> [String: String] {
        let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    static func oauthError(_ error: String) throws -> Response {
        Response(
            status: .badRequest, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["error": error]))))
    }
}
