public import Foundation
import Hummingbird
public import JWTKit
import NIOFoundationCompat

/// The App Store Server API's key, as App Store Connect knows it: the public half of the operator's
/// In-App Purchase key, its id and the issuer id, which the stand-in checks bearer tokens against.
public struct AppStoreServerAPIKey: Sendable {
    public let publicKeyPEM: String
    public let keyID: String
    public let issuerID: String

    public init(publicKeyPEM: String, keyID: String, issuerID: String) {
        self.publicKeyPEM = publicKeyPEM
        self.keyID = keyID
        self.issuerID = issuerID
    }
}

/// What an App Store Server API bearer token claims: the issuer, its life, the audience
/// `appstoreconnect-v1` and the app (`bid`). Verifying checks the life and the audience.
public struct AppStoreServerAPIClaims: JWTPayload {
    public var iss: IssuerClaim
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim
    public var aud: AudienceClaim
    public var bid: String

    public init(issuer: String, issuedAt: Date, expiresAt: Date, audience: String = "appstoreconnect-v1", bundleID: String) {
        iss = IssuerClaim(value: issuer)
        iat = IssuedAtClaim(value: issuedAt)
        exp = ExpirationClaim(value: expiresAt)
        aud = AudienceClaim(value: audience)
        bid = bundleID
    }

    public func verify(using algorithm: some JWTAlgorithm) throws {
        try exp.verifyNotExpired()
        try aud.verifyIntendedAudience(includes: "appstoreconnect-v1")
    }
}

/// `GET /inApps/v2/history/{transactionId}`, as Apple answers it: 401 without a bearer token signed
/// (ES256) by the registered key for `appstoreconnect-v1`, this issuer and this app, unexpired;
/// 404 (`errorCode` 4040010) for a transaction it never made; otherwise the customer's transactions
/// (those with its account token, or its subscription's periods), newest first, signed.
struct AppStoreServerAPIStandIn: Sendable {
    typealias Claims = AppStoreServerAPIClaims

    let key: AppStoreServerAPIKey
    let bundleID: String
    let keys = JWTKeyCollection()

    static func make(key: AppStoreServerAPIKey, bundleID: String) async throws -> AppStoreServerAPIStandIn {
        let standIn = AppStoreServerAPIStandIn(key: key, bundleID: bundleID)
        await standIn.keys.add(ecdsa: try ES256PublicKey(pem: key.publicKeyPEM), kid: JWKIdentifier(string: key.keyID))
        return standIn
    }

    /// Whether `authorization` is a bearer token the App Store would take.
    func accepts(_ authorization: String?) async -> Bool {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return false }
        guard let claims = try? await keys.verify(String(authorization.dropFirst(7)), as: Claims.self) else { return false }
        // Apple refuses tokens that claim to live longer than an hour.
        return claims.iss.value == key.issuerID && claims.bid == bundleID && claims.exp.value.timeIntervalSince(claims.iat.value) <= 3600
    }

    static func problem(_ status: HTTPResponse.Status, code: Int, _ message: String) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(ErrorBody(errorCode: code, errorMessage: message)))))
    }

    struct ErrorBody: Encodable {
        let errorCode: Int
        let errorMessage: String
    }

    struct HistoryPage: Encodable {
        var signedTransactions: [String]
        var hasMore: Bool
        var revision: String
        var bundleId: String
        var environment: String
    }
}
