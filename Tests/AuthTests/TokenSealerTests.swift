import Foundation
import ServiceHTTP
import Testing

@Suite("Apple's refresh tokens, sealed at rest")
struct TokenSealerTests {
    static func key() -> String { Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }

    @Test("a sealed token opens with its key only, and its text does not show")
    func sealing() throws {
        let sealer = try #require(TokenSealer(base64Key: Self.key()))
        let sealed = try sealer.seal("r.apple-refresh-token")
        let sealedAgain = try sealer.seal("r.apple-refresh-token")
        #expect(!sealed.contains("apple-refresh-token") && sealed != sealedAgain)
        #expect(try sealer.open(sealed) == "r.apple-refresh-token")
        let other = try #require(TokenSealer(base64Key: Self.key()))
        #expect(throws: (any Error).self) { try other.open(sealed) }
        #expect(TokenSealer(base64Key: "too short") == nil)
    }
}
