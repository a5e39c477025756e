import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// The App Store Server API's transaction history (`GET /inApps/v2/history/{transactionId}`), asked
/// with an ES256 bearer token made from the operator's In-App Purchase key: what purchases reads
/// to bring a subscription a phone restores up to its latest period. Each token is signed for one
/// call and lives five minutes (Apple accepts up to an hour); a restore makes a few calls at most.
struct AppStoreServerAPI: Sendable {
    struct Settings: Sendable {
        /// `https://api.storekit.itunes.apple.com`, or `https://api.storekit-sandbox.itunes.apple.com` for the sandbox.
        var baseURL: String
        /// The `.p8` key App Store Connect gives (a PKCS#8 P-256 key), its id and the issuer id.
        var privateKeyPEM: String
        var keyID: String
        var issuerID: String
        var bundleID: String
        /// How long one call may take before restore goes on with what the phone sent.
        var timeout: TimeAmount = .seconds(5)
    }

    /// The API's answer (Apple's `HistoryResponse`), the fields read.
    struct HistoryPage: Decodable {
        var signedTransactions: [String]
        var hasMore: Bool
        var revision: String?
    }

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var aud: AudienceClaim
        var bid: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// What the API answered other than 200.
    struct Refused: Error, CustomStringConvertible {
        let status: UInt
        var description: String { "the App Store Server API answered \(status)" }
    }

    let settings: Settings
    let http: HTTPClient
    private let keys = JWTKeyCollection()

    init(settings: Settings, http: HTTPClient) async throws {
        self.settings = settings
        self.http = http
        await keys.add(ecdsa: try ES256PrivateKey(pem: settings.privateKeyPEM), kid: JWKIdentifier(string: settings.keyID))
    }

    /// Every signed transaction of the customer who made `transactionId`, newest first (at most ten pages).
    func history(of transactionId: String, now: Date) async throws -> [String] {
        var signed: [String] = [], revision: String?
        for _ in 0..<10 {
            var url = "\(settings.baseURL)/inApps/v2/history/\(transactionId)?sort=DESCENDING"
            if let revision { url += "&revision=\(revision)" }
            var request = HTTPClientRequest.toProvider(url)
            request.headers.add(name: "Authorization", value: "Bearer \(try await token(at: now))")
            let response = try await http.callProvider("App Store", "transaction history", request, timeout: settings.timeout)
            let body = try await response.body.collect(upTo: 4 << 20)
            guard response.status.code == 200 else { throw Refused(status: response.status.code) }
            let page = try JSONDecoder().decode(HistoryPage.self, from: Data(buffer: body))
            signed += page.signedTransactions
            guard page.hasMore, let next = page.revision else { break }
            revision = next
        }
        return signed
    }

    private func token(at now: Date) async throws -> String {
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return try await keys.sign(
            Claims(
                iss: IssuerClaim(value: settings.issuerID), iat: IssuedAtClaim(value: issued),
                exp: ExpirationClaim(value: issued.addingTimeInterval(300)), aud: AudienceClaim(value: "appstoreconnect-v1"),
                bid: settings.bundleID),
            kid: JWKIdentifier(string: settings.keyID), header: ["typ": "JWT"])
    }
}
