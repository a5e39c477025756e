import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// The identity a provider vouches for.
struct ProviderIdentity: Sendable, Equatable {
    var providerUserID: String
    /// As the provider gave it (empty for none); `Accounts` holds it to the rule for names.
    var name: String
    /// Facebook returns an email only when the person verified it, so it can link accounts.
    var verifiedEmail: String?
    /// The provider's profile picture, when it has one (Facebook's default silhouette is none).
    var pictureUrl: String? = nil
    /// Apple's refresh token from the sign-in's authorization code, sealed; kept with the member.
    var sealedRefreshToken: String? = nil
}

/// Checks a Facebook user access token the way Facebook documents it: `GET /debug_token` with the
/// app's token must say `is_valid`, name our `app_id` and not be expired; then `GET /me` gives the
/// profile. The base URL is configurable so development and tests use the stub provider.
struct FacebookVerifier: Sendable {
    struct Settings: Sendable {
        var baseURL: String?
        var appID: String
        var appSecret: String
        var timeout: Duration
    }

    let settings: Settings
    let httpClient: HTTPClient
    let logger: Logger
    /// The module's clock, against which the token's expiry is judged.
    let now: @Sendable () -> Date

    func verify(_ userToken: String) async throws -> ProviderIdentity {
        guard let baseURL = settings.baseURL else {
            logger.warning("Facebook sign-in attempted but auth.oauth.facebook.url is not set")
            throw AuthError.oauthProviderUnavailable
        }
        guard !userToken.isEmpty, userToken.count <= 4096 else { throw AuthError.invalidOAuthToken("The token is empty or too long.") }
        let appToken = "\(settings.appID)|\(settings.appSecret)"
        let debug: DebugTokenResponse = try await get(
            baseURL + "/debug_token?input_token=\(Self.escape(userToken))&access_token=\(Self.escape(appToken))")
        guard let data = debug.data, data.isValid == true else {
            throw AuthError.invalidOAuthToken("The provider says the token is not valid.")
        }
        guard data.appID == settings.appID else { throw AuthError.invalidOAuthToken("The token was issued to another app.") }
        if let expiresAt = data.expiresAt, expiresAt != 0, Date(timeIntervalSince1970: TimeInterval(expiresAt)) <= now() {
            throw AuthError.invalidOAuthToken("The token has expired.")
        }
        let profile: ProfileResponse = try await get(
            baseURL + "/me?fields=id,name,email,picture.type(large)&access_token=\(Self.escape(userToken))")
        guard let userID = data.userID, profile.id == userID else {
            throw AuthError.invalidOAuthToken("The token does not belong to the profile it returns.")
        }
        let picture = profile.picture?.data.flatMap { $0.isSilhouette == true ? nil : $0.url }
        return ProviderIdentity(
            providerUserID: userID, name: profile.name ?? "", verifiedEmail: profile.email,
            pictureUrl: picture.flatMap { AuthValidation.pictureUrlProblem($0) == nil ? $0 : nil })
    }

    private func get<T: Decodable>(_ url: String) async throws -> T {
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await httpClient.callProvider("Facebook", "debug_token", .toProvider(url), timeout: .init(settings.timeout))
            body = try await response.body.collect(upTo: 1024 * 1024)
        } catch {
            logger.warning("sign-in provider unreachable: \(error)")
            throw AuthError.oauthProviderUnavailable
        }
        if response.status.code >= 500 {
            logger.warning("sign-in provider answered \(response.status.code)")
            throw AuthError.oauthProviderUnavailable
        }
        if response.status.code >= 400 { throw AuthError.invalidOAuthToken("The provider refused the token.") }
        guard let decoded = try? JSONDecoder().decode(T.self, from: Data(buffer: body)) else {
            logger.warning("sign-in provider answered a body we cannot read")
            throw AuthError.oauthProviderUnavailable
        }
        return decoded
    }

    private static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    // Field names are Facebook's.
    private struct DebugTokenResponse: Decodable {
        struct Data: Decodable {
            var isValid: Bool?
            var appID: String?
            var userID: String?
            var expiresAt: Int?
            enum CodingKeys: String, CodingKey {
                case isValid = "is_valid", appID = "app_id", userID = "user_id", expiresAt = "expires_at"
            }
        }
        var data: Data?
    }

    /// Graph API's field names: `picture.data.url`, `picture.data.is_silhouette`.
    private struct ProfileResponse: Decodable {
        struct Picture: Decodable {
            struct Data: Decodable {
                var url: String?
                var isSilhouette: Bool?
                enum CodingKeys: String, CodingKey {
                    case url, isSilhouette = "is_silhouette"
                }
            }
            var data: Data?
        }

        var id: String
        var name: String?
        var email: String?
        var picture: Picture?
    }
}
