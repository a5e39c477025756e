import Crypto
import Foundation

/// Seals Apple's refresh tokens before they are stored (AES-GCM, key `auth.oauth.apple.refresh.key`):
/// a copy of auth's database alone cannot act for a member at Apple.
struct RefreshTokenSealer: Sendable {
    let key: SymmetricKey

    /// `base64Key`: 32 random bytes, base64.
    init?(base64Key: String) {
        guard let bytes = Data(base64Encoded: base64Key), bytes.count == 32 else { return nil }
        key = SymmetricKey(data: bytes)
    }

    func seal(_ token: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(token.utf8), using: key).combined else { throw AuthError.oauthProviderUnavailable }
        return combined.base64EncodedString()
    }

    func open(_ sealed: String) throws -> String {
        guard let data = Data(base64Encoded: sealed) else { throw AuthError.oauthProviderUnavailable }
        return String(decoding: try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key), as: UTF8.self)
    }
}
