import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps make them:
/// HMAC-SHA-1, six digits, thirty-second steps. Written here because it is twenty lines over
/// swift-crypto's HMAC; RFC 6238's test vectors hold it (`TOTPTests`).
struct TOTP: Sendable, Equatable {
    let secret: Data
    var digits = 6
    var period: TimeInterval = 30

    /// A new secret of 160 random bits, as RFC 4226 recommends.
    static func newSecret() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The step `date` falls in.
    func step(at date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// The code of `step`, zero-padded.
    func code(step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = binary % UInt32(pow(10, Double(digits)))
        return String(repeating: "0", count: max(0, digits - String(value).count)) + String(value)
    }

    /// The step whose code `code` is, within one step either side of `date` (a phone's clock drifts
    /// and a code typed late is still the last one), or nil.
    func matchingStep(of code: String, at date: Date) -> Int64? {
        let now = step(at: date)
        return [now, now - 1, now + 1].first { self.code(step: $0) == code }
    }

    /// `otpauth://totp/Huddle:ada@huddle.dev?secret=…&issuer=Huddle`, which authenticator apps read from a QR code.
    func provisioningURI(account: String, issuer: String) -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/\(issuer):\(account)"
        components.queryItems = [
            URLQueryItem(name: "secret", value: Base32.encode(secret)), URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: "SHA1"), URLQueryItem(name: "digits", value: String(digits)),
            URLQueryItem(name: "period", value: String(Int(period))),
        ]
        return components.string ?? ""
    }
}

/// RFC 4648 base32 without padding, the alphabet authenticator apps take secrets in.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    static func encode(_ data: Data) -> String {
        var output = "", buffer = 0, bits = 0
        for byte in data {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return output
    }

    static func decode(_ text: String) -> Data? {
        var output = Data(), buffer = 0, bits = 0
        for character in text.uppercased() where character != "=" {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output
    }
}
