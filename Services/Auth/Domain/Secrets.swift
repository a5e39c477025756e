import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import ServiceHTTP

/// Refresh tokens: 256 random bits handed to the client once; only their SHA-256 is stored.
enum RefreshToken {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URLEncodedString()
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }
}

/// bcrypt on `ComputePool`: hashing takes hundreds of milliseconds at cost 12 and must never
/// run on an event loop.
///
/// bcrypt reads only the first 72 bytes of its input, and a password of 30 non-Latin letters is
/// already 90 bytes of UTF-8. A password longer than that is hashed with SHA-256 first (44 bytes in
/// base64), so every character counts; passwords of up to 72 bytes go to bcrypt as they are, which
/// keeps every hash stored before this rule valid.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// Verified against when the email is unknown, so that answer takes as long as a wrong password.
    let dummyHash: String

    init(cost: UInt8) async throws {
        self.cost = cost
        self.dummyHash = try await ComputePool.shared.runIfActive {
            Bcrypt.hash("not-a-real-password-\(UUID())", cost: cost)
        }
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let input = Self.bcryptInput(password)
        return try await ComputePool.shared.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, against hash: String?) async throws -> Bool {
        let hash = hash ?? dummyHash
        let input = Self.bcryptInput(password)
        let matches = try await ComputePool.shared.runIfActive { Bcrypt.verify(input, hash: hash) }
        return matches && hash != dummyHash
    }

    static let bcryptInputLimit = 72

    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > bcryptInputLimit else { return password }
        return "sha256:" + Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
