import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// Apple's token endpoint, called as Apple's client: a sign-in's authorization code is exchanged
/// for a refresh token (`/auth/token`), which deletion revokes (`/auth/revoke`). Each call carries a
/// client secret auth makes itself: an ES256 JWT from the team's Sign in with Apple key.
struct AppleTokenExchange: Sendable {
    struct Settings: Sendable {
        var baseURL: String
        /// The client id codes are issued to: the app's bundle id (or a services id for the web).
        var clientID: String
        var teamID: String
        var keyID: String
        var privateKeyPEM: String
        var timeout: Duration
    }

    let settings: Settings
    let secret: AppleClientSecret
    let httpClient: HTTPClient
    let logger: Logger

    init(settings: Settings, httpClient: HTTPClient, logger: Logger, now: @escaping @Sendable () -> Date) async throws {
        self.settings = settings
        self.httpClient = httpClient
        self.logger = logger
        secret = try await AppleClientSecret(settings: settings, now: now)
    }

    /// The refresh token Apple gives for `code`. A code Apple refuses is an invalid sign-in.
    func refreshToken(for code: String) async throws -> String {
        struct Tokens: Decodable {
            let refreshToken: String?
            enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
        }
        let body = try await post(
            "/auth/token", ["client_id": settings.clientID, "code": code, "grant_type": "authorization_code"])
        guard let token = try? JSONDecoder().decode(Tokens.self, from: body).refreshToken else {
            throw AuthError.invalidProviderToken("Apple did not take the authorization code.")
        }
        return token
    }

    /// Tells Apple the app no longer holds `refreshToken` (and so the user's authorization ends).
    func revoke(_ refreshToken: String) async throws {
        _ = try await post(
            "/auth/revoke", ["client_id": settings.clientID, "token": refreshToken, "token_type_hint": "refresh_token"])
    }

    private func post(_ path: String, _ fields: [String: String]) async throws -> Data {
        var form = fields
        form["client_secret"] = try await secret.current()
        var request = HTTPClientRequest.toProvider(settings.baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: Self.encode(form)))
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await httpClient.callProvider("Apple", "token", request, timeout: .init(settings.timeout))
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            logger.warning("Apple's \(path) unreachable: \(error)")
            throw AuthError.oauthProviderUnavailable
        }
        switch response.status.code {
        case 200: return Data(buffer: body)
        case 400..<500: throw AuthError.invalidProviderToken("Apple refused: \(String(buffer: body))")
        default:
            logger.warning("Apple's \(path) answered \(response.status.code)")
            throw AuthError.oauthProviderUnavailable
        }
    }

    static func encode(_ form: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
    }
}

/// The client secret: reused until a day before it ends, then made again. Apple takes secrets that
/// live up to six months; these live thirty days, so a key rotated in App Store Connect is in use
/// within a month even if auth never restarts.
actor AppleClientSecret {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var aud: AudienceClaim
        var sub: SubjectClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    static let lifetime: TimeInterval = 30 * 86_400
    private let keys = JWTKeyCollection()
    private let settings: AppleTokenExchange.Settings
    private let now: @Sendable () -> Date
    private var made: (secret: String, expiresAt: Date)?

    init(settings: AppleTokenExchange.Settings, now: @escaping @Sendable () -> Date) async throws {
        self.settings = settings
        self.now = now
        await keys.add(ecdsa: try ES256PrivateKey(pem: settings.privateKeyPEM), kid: JWKIdentifier(string: settings.keyID))
    }

    func current() async throws -> String {
        let at = now()
        if let made, made.expiresAt.timeIntervalSince(at) > 86_400 { return made.secret }
        let issued = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
        let expiresAt = issued.addingTimeInterval(Self.lifetime)
        let secret = try await keys.sign(
            Claims(
                iss: IssuerClaim(value: settings.teamID), iat: IssuedAtClaim(value: issued), exp: ExpirationClaim(value: expiresAt),
                aud: AudienceClaim(value: AppleIdentityVerifier.issuer), sub: SubjectClaim(value: settings.clientID)),
            kid: JWKIdentifier(string: settings.keyID))
        made = (secret, expiresAt)
        return secret
    }
}
