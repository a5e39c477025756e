import Contracts
import Crypto
import Foundation

/// How media writes the URLs it hands out: where an app sends an upload's bytes when the object
/// store takes none directly, where public sizes are read, and where a private one is read through
/// the gateway with the reader's token.
struct UploadLinks: Sendable {
    /// The gateway's public address (`media.api.url`, e.g. `https://api.huddle.dev`; unset, the
    /// gateway's address in the service directory, known once it listens).
    let api: @Sendable () -> String
    /// Where public objects are read (`media.public.url`): the bucket's public address; nil:
    /// `<api>/v1/media`, media serving them itself.
    let publicBase: String?
    /// Signs the all-in-one's upload URLs, so only the one who created the upload can PUT to it.
    let key: SymmetricKey

    func upload(_ id: MediaID, expires: Date) -> URL {
        let seconds = Int(expires.timeIntervalSince1970)
        return URL(string: "\(api())/v1/media/uploads/\(id)/content?expires=\(seconds)&signature=\(signature(id, seconds))")!
    }

    /// Whether `signature` is this deployment's for `id` until `expires`, and `expires` has not passed.
    func accepts(_ id: MediaID, expires: Int, signature given: String, now: Date) -> Bool {
        guard Double(expires) >= now.timeIntervalSince1970 else { return false }
        let expected = Array(signature(id, expires).utf8), actual = Array(given.utf8)
        // Compared in constant time: a timing difference would let a forger find it byte by byte.
        return expected.count == actual.count && zip(expected, actual).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    func publicObject(_ key: String) -> String { "\(publicBase ?? api() + "/v1/media")/\(key)" }

    func privateVariant(_ id: MediaID, _ name: String) -> String { "\(api())/v1/media/\(id)/sizes/\(name)" }

    private func signature(_ id: MediaID, _ expires: Int) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(id):\(expires)".utf8), using: key).map { String(format: "%02x", $0) }.joined()
    }
}
