import SwiftASN1
import X509

/// Apple's marks on the certificates that sign App Store data: the intermediate is Apple's
/// Worldwide Developer Relations CA, the leaf an App Store receipt signer. A chain to Apple's root
/// without them is some other Apple certificate, and does not speak for the App Store.
struct AppStoreMarkerPolicy: VerifierPolicy {
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else { return .failsToMeetPolicy(reason: "the chain is not leaf, intermediate and root") }
        guard chain[1].extensions.contains(where: { $0.oid == Self.intermediateMarker }) else {
            return .failsToMeetPolicy(reason: "the intermediate certificate lacks Apple's marker 1.2.840.113635.100.6.2.1")
        }
        guard chain[0].extensions.contains(where: { $0.oid == Self.leafMarker }) else {
            return .failsToMeetPolicy(reason: "the leaf certificate lacks Apple's marker 1.2.840.113635.100.6.11.1")
        }
        return .meetsPolicy
    }
}
