import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// An OAuth2 access token for FCM, got the way a Google service account gets one: a JWT signed
/// with the account's RSA key (RS256; `iss` the account, `scope` firebase.messaging, `aud` the
/// token endpoint, valid an hour) exchanged at the token endpoint (RFC 7523's jwt-bearer grant).
/// The token is kept until five minutes before it expires.
actor FCMAccessToken {
    private let client: HTTPClient
    private let account: FCMSettings.ServiceAccount
    private let keys = JWTKeyCollection()
    private let timeout: TimeAmount
    private let now: @Sendable () -> Date
    private var current: (token: String, expiresAt: Date)?
    /// The exchange under way: pushes sent at once wait for one exchange rather than each making
    /// their own (the actor lets others in while it awaits the endpoint).
    private var exchanging: Task<(token: String, expiresAt: Date), any Error>?

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    struct Assertion: JWTPayload {
        var iss: IssuerClaim
        var scope: String
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    struct Grant: Decodable {
        let accessToken: String
        let expiresIn: Int
        enum CodingKeys: String, CodingKey { case accessToken = "access_token", expiresIn = "expires_in" }
    }

    struct ExchangeFailed: Error, CustomStringConvertible {
        let status: UInt
        var description: String { "the token endpoint answered \(status)" }
    }

    init(client: HTTPClient, account: FCMSettings.ServiceAccount, timeout: TimeAmount, now: @escaping @Sendable () -> Date) async throws {
        self.client = client
        self.account = account
        self.timeout = timeout
        self.now = now
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: account.privateKey), digestAlgorithm: .sha256)
    }

    /// The token to send now; a new one when the kept one is within five minutes of expiring, or
    /// when `force`d (FCM said it was not valid).
    func bearer(force: Bool = false) async throws -> String {
        let at = now()
        if !force, let current, current.expiresAt.timeIntervalSince(at) > 300 { return current.token }
        if let exchanging { return try await exchanging.value.token }
        let task = Task { try await exchange(at: at) }
        exchanging = task
        defer { exchanging = nil }
        let fresh = try await task.value
        current = fresh
        return fresh.token
    }

    private func exchange(at: Date) async throws -> (token: String, expiresAt: Date) {
        let issuedAt = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
        let assertion = try await keys.sign(
            Assertion(
                iss: IssuerClaim(value: account.clientEmail), scope: Self.scope, aud: AudienceClaim(value: account.tokenUri),
                iat: IssuedAtClaim(value: issuedAt), exp: ExpirationClaim(value: issuedAt.addingTimeInterval(3600))))
        var request = HTTPClientRequest.toProvider(account.tokenUri)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await client.callProvider("Google", "token", request, timeout: timeout)
        let body = try await response.body.collect(upTo: 64 * 1024)
        guard response.status == .ok else { throw ExchangeFailed(status: response.status.code) }
        let grant = try JSONDecoder().decode(Grant.self, from: body)
        return (grant.accessToken, at.addingTimeInterval(TimeInterval(grant.expiresIn)))
    }
}
