import Foundation
import ProviderStandIns
import ServiceHTTP
import Testing
import X509

@testable import PurchasesService

/// Every way a signed transaction can be wrong is refused before its payload is believed.
@Suite("Verifying what the App Store signs")
struct SignedDataVerifierTests {
    static let player = UUID()

    static func transaction(signedDate: Date = Date()) -> AppStoreTransactionPayload {
        AppStoreTransactionPayload(
            transactionId: "2000000123456789", bundleId: "dev.huddle.app", productId: "dev.huddle.location", type: "Non-Consumable",
            appAccountToken: player, signedDate: signedDate)
    }

    static func verifier(trusting signer: AppStoreSigner) -> SignedDataVerifier { SignedDataVerifier(roots: [signer.root]) }

    static func refusal(_ jws: String, by verifier: SignedDataVerifier) async -> String? {
        do {
            _ = try await verifier.verify(jws, as: AppStoreTransaction.self)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a transaction signed by the App Store's chain is read, dates and account token included")
    func accepted() async throws {
        let signer = try AppStoreSigner()
        let read = try await Self.verifier(trusting: signer).verify(try signer.sign(Self.transaction()), as: AppStoreTransaction.self)
        #expect(read.transactionId == "2000000123456789" && read.productId == "dev.huddle.location")
        #expect(read.appAccountToken == Self.player && read.environment == .sandbox)
    }

    @Test("a chain to another root, or without either of Apple's markers, is refused")
    func wrongChains() async throws {
        let trusted = try AppStoreSigner(), stranger = try AppStoreSigner()
        let verifier = Self.verifier(trusting: trusted)
        #expect(await Self.refusal(try stranger.sign(Self.transaction()), by: verifier)?.contains("certificate chain") == true)
        var options = AppStoreSigner.Options()
        options.intermediateMarker = false
        let unmarkedIntermediate = try AppStoreSigner(options: options)
        #expect(
            await Self.refusal(try unmarkedIntermediate.sign(Self.transaction()), by: Self.verifier(trusting: unmarkedIntermediate))?
                .contains("1.2.840.113635.100.6.2.1") == true)
        options = AppStoreSigner.Options()
        options.leafMarker = false
        let unmarkedLeaf = try AppStoreSigner(options: options)
        #expect(
            await Self.refusal(try unmarkedLeaf.sign(Self.transaction()), by: Self.verifier(trusting: unmarkedLeaf))?
                .contains("1.2.840.113635.100.6.11.1") == true)
    }

    @Test("two certificates, or a leaf expired at signedDate, are refused; a leaf valid at signedDate is enough")
    func chainShapeAndTime() async throws {
        var options = AppStoreSigner.Options()
        options.leafValidity = Date().addingTimeInterval(-30 * 86_400)...Date().addingTimeInterval(-86_400)
        let expired = try AppStoreSigner(options: options)
        let verifier = Self.verifier(trusting: expired)
        #expect(await Self.refusal(try expired.sign(Self.transaction(), certificates: 2), by: verifier)?.contains("exactly three") == true)
        #expect(await Self.refusal(try expired.sign(Self.transaction()), by: verifier)?.contains("as of signedDate") == true)
        // Signed while the leaf was valid: still good today, as Apple's library judges it.
        let signedThen = Self.transaction(signedDate: Date().addingTimeInterval(-2 * 86_400))
        #expect(await Self.refusal(try expired.sign(signedThen), by: verifier) == nil)
    }

    @Test("alg none or HS256, a tampered payload and a cut signature are refused")
    func tampering() async throws {
        let signer = try AppStoreSigner()
        let verifier = Self.verifier(trusting: signer)
        let signed = try signer.sign(Self.transaction())
        let parts = signed.split(separator: ".").map(String.init)
        let header = try #require(Data(base64URLEncoded: parts[0]))
        for alg in ["none", "HS256"] {
            let replaced = String(decoding: header, as: UTF8.self).replacingOccurrences(of: "ES256", with: alg)
            let forged = [Data(replaced.utf8).base64URLEncodedString(), parts[1], parts[2]].joined(separator: ".")
            #expect(await Self.refusal(forged, by: verifier) == "alg must be ES256, not \(alg)")
        }
        var other = Self.transaction()
        other.productId = "dev.huddle.all.monthly"
        let tampered = [parts[0], try JSONEncoder().encode(other).base64URLEncodedString(), parts[2]].joined(separator: ".")
        #expect(await Self.refusal(tampered, by: verifier)?.contains("signature") == true)
        #expect(await Self.refusal(parts[0] + "." + parts[1] + ".", by: verifier) != nil)
        #expect(await Self.refusal("not a jws", by: verifier) == "not a JWS in compact form")
    }
}
