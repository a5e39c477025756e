import Crypto
import Foundation
import ServiceHTTP
import SwiftASN1
import X509

/// Verifies what the App Store signs — a StoreKit 2 transaction, a server notification — the way
/// Apple's app-store-server-library does: a JWS whose `alg` is ES256 and whose `x5c` holds exactly
/// leaf, intermediate and root; the leaf and intermediate chain, as of the payload's `signedDate`,
/// to one of `roots` (Apple Root CA - G3 in production), carrying Apple's markers; then the
/// signature, by the leaf's key. Only then is the payload believed.
///
/// The signature is checked with swift-crypto directly rather than through jwt-kit: the key comes
/// from a certificate verified a step before, not from a key set, and the check is three lines.
struct SignedDataVerifier: Sendable {
    let roots: [Certificate]

    /// Why signed data was refused, in words a client can act on.
    struct Refused: Error, Equatable, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    func verify<Payload: AppStoreSigned>(_ jws: String, as payload: Payload.Type) async throws(Refused) -> Payload {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Data(base64URLEncoded: String(parts[0])),
            let payloadData = Data(base64URLEncoded: String(parts[1])), let signature = Data(base64URLEncoded: String(parts[2]))
        else { throw Refused(reason: "not a JWS in compact form") }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else {
            throw Refused(reason: "an unreadable JWS header")
        }
        guard header.alg == "ES256" else { throw Refused(reason: "alg must be ES256, not \(header.alg ?? "absent")") }
        guard let chain = header.x5c, chain.count == 3 else {
            throw Refused(reason: "x5c must hold exactly three certificates, not \(header.x5c?.count ?? 0)")
        }
        guard let value = try? JSONDecoder().decode(Payload.self, from: payloadData) else {
            throw Refused(reason: "a payload that is not the App Store's")
        }
        let certificates: [Certificate]
        do {
            certificates = try chain.prefix(2).map { encoded in
                guard let der = Data(base64Encoded: encoded) else { throw Refused(reason: "an x5c entry that is not base64") }
                return try Certificate(derEncoded: Array(der))
            }
        } catch {
            throw Refused(reason: "an x5c certificate that cannot be read")
        }
        let signedAt = Date(appStoreMilliseconds: value.signedDate)
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(validationTime: signedAt)
            AppStoreMarkerPolicy()
        }
        let result = await verifier.validate(leafCertificate: certificates[0], intermediates: CertificateStore([certificates[1]]))
        guard case .validCertificate(let validated) = result else {
            throw Refused(reason: "the certificate chain is not the App Store's as of signedDate (\(Self.reason(result)))")
        }
        guard let key = P256.Signing.PublicKey(validated[0].publicKey),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { throw Refused(reason: "the signature does not match the leaf certificate") }
        return value
    }

    private struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    private static func reason(_ result: VerificationResult) -> String {
        guard case .couldNotValidate(let failures) = result else { return "valid" }
        return failures.first.map { "\($0.policyFailureReason)" } ?? "no chain to a trusted root"
    }
}
