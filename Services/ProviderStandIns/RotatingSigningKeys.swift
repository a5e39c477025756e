import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

/// An identity provider's RS256 signing keys as the stand-ins play them (Apple's, Google's): tokens
/// are signed with the newest; the JWKS lists it and the one before, as the providers' key sets list
/// several while they rotate.
final class RotatingSigningKeys: Sendable {
    struct SigningKey {
        let kid: String
        let privateKey: JWTKit.Insecure.RSA.PrivateKey
        let jwk: [String: String]
    }

    private let keys = NIOLockedValueBox<[SigningKey]>([])
    private let prefix: String

    init(prefix: String) throws {
        self.prefix = prefix
        try rotate()
    }

    /// A new signing key; answers its `kid`.
    @discardableResult
    func rotate() throws -> String {
        let backing = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let privateKey = try JWTKit.Insecure.RSA.PrivateKey(pem: backing.pemRepresentation)
        let (modulus, exponent) = try JWTKit.Insecure.RSA.PublicKey(pem: backing.publicKey.pemRepresentation).getKeyPrimitives()
        let kid = prefix + UUID().uuidString.prefix(8).lowercased()
        let jwk = [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": modulus.base64URLEncodedString(),
            "e": exponent.base64URLEncodedString(),
        ]
        keys.withLockedValue { $0 = Array(($0 + [SigningKey(kid: kid, privateKey: privateKey, jwk: jwk)]).suffix(2)) }
        return kid
    }

    /// `claims` signed with the newest key, named by its `kid`.
    func sign(_ claims: some JWTPayload) async throws -> String {
        guard let key = keys.withLockedValue({ $0.last }) else { throw HTTPError(.internalServerError) }
        let collection = JWTKeyCollection()
        await collection.add(rsa: key.privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
        return try await collection.sign(claims, kid: JWKIdentifier(string: key.kid))
    }

    /// The key set as the providers serve it: `{"keys": [...]}`.
    func jwksResponse() throws -> Response {
        let body = try JSONSerialization.data(withJSONObject: ["keys": keys.withLockedValue { $0.map(\.jwk) }], options: [.sortedKeys])
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: body)))
    }
}

// The stand-in depends on no Huddle module, so it encodes base64url itself.
extension Data {
    fileprivate func base64URLEncodedString() -> String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
