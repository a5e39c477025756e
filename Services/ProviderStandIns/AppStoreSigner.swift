import Crypto
public import Foundation
import HuddleEffects
import SwiftASN1
public import X509

/// The App Store's signing side, as the stand-in plays it: a root of its own (standing for Apple
/// Root CA - G3), an intermediate carrying Apple's WWDR marker and a leaf carrying the receipt
/// signer's, made at start; it signs payloads as JWS (ES256, `x5c` leaf, intermediate, root), which
/// Huddle's purchases verifies exactly as it verifies Apple's. Tests make broken signers through
/// `Options` to see each way a chain can be wrong refused.
public struct AppStoreSigner: Sendable {
    public struct Options: Sendable {
        public var intermediateMarker = true
        public var leafMarker = true
        /// When the leaf is valid.
        public var leafValidity: ClosedRange<Date> =
            Effects.system.now().addingTimeInterval(-86_400)...Effects.system.now().addingTimeInterval(365 * 86_400)

        public init() {}
    }

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    private let leafKey: P256.Signing.PrivateKey

    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    public init(options: Options = Options()) throws {
        let rootKey = P256.Signing.PrivateKey(), intermediateKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Huddle stand-in App Store Root CA") }
        let intermediateName = try DistinguishedName { CommonName("Huddle stand-in Worldwide Developer Relations CA") }
        let leafName = try DistinguishedName { CommonName("Huddle stand-in App Store receipt signer") }
        let longAgo = Effects.system.now().addingTimeInterval(-10 * 365 * 86_400),
            farAhead = Effects.system.now().addingTimeInterval(10 * 365 * 86_400)
        // Apple's markers are extensions whose value is an ASN.1 NULL.
        let null: ArraySlice<UInt8> = [0x05, 0x00]
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: longAgo, notValidAfter: farAhead,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: longAgo,
            notValidAfter: farAhead, issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                if options.intermediateMarker { Certificate.Extension(oid: Self.intermediateMarker, critical: false, value: null) }
            },
            issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: options.leafValidity.lowerBound,
            notValidAfter: options.leafValidity.upperBound, issuer: intermediateName, subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if options.leafMarker { Certificate.Extension(oid: Self.leafMarker, critical: false, value: null) }
            },
            issuerPrivateKey: .init(intermediateKey))
        self.leafKey = leafKey
    }

    /// The root as PEM, for the verifier's trust (`purchases.appstore.roots`).
    public var rootPEM: String { get throws { try root.serializeAsPEM().pemString } }

    /// `payload` signed as the App Store signs: ES256 over `header.payload`, with `x5c` leaf,
    /// intermediate and root (or the first `certificates` of them).
    public func sign(_ payload: some Encodable, certificates: Int = 3) throws -> String {
        let chain = try [leaf, intermediate, root].prefix(certificates).map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": chain], options: [.sortedKeys])
        let signingInput = Self.base64URL(header) + "." + Self.base64URL(try JSONEncoder().encode(payload))
        let signature = try leafKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
