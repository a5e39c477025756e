import Crypto
import Foundation

/// Seals tokens another party issued before they are stored (AES-GCM), so a copy of the database
/// alone cannot act with them: Apple's refresh tokens in auth, the console's auth session in
/// moderation.
public struct TokenSealer: Sendable {
    let key: SymmetricKey

    public struct Unreadable: Error {}

    /// `base64Key`: 32 random bytes, base64.
    public init?(base64Key: String) {
        guard let bytes = Data(base64Encoded: base64Key), bytes.count == 32 else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// A key derived (HKDF-SHA256) from a secret the service holds anyway, one per `purpose`.
    public init(derivedFrom secret: String, purpose: String) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)), info: Data(purpose.utf8), outputByteCount: 32)
    }

    public func seal(_ token: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(token.utf8), using: key).combined else { throw Unreadable() }
        return combined.base64EncodedString()
    }

    public func open(_ sealed: String) throws -> String {
        guard let data = Data(base64Encoded: sealed) else { throw Unreadable() }
        return String(decoding: try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key), as: UTF8.self)
    }
}
