import Contracts
import Foundation
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// `JSONTree.read`, where every body and socket frame is read: the same tree `JSONDecoder` makes of
/// any JSON, the same refusals, the first of a repeated field, and nesting past the limit refused.
@Suite("JSON trees")
struct JSONTreeTests {
    static let valid = [
        #"{"s": "1", "i": 1, "big": 9223372036854775807, "past": 9223372036854775808, "n": 1.5, "t": true, "f": false, "z": null}"#,
        #"[1, "x", [], {}, false, null, -0, -0.0, 0.25, -3, 1e3, 1E-2, 2.5e+2, 1.0, 100e-2, 1e20, 123456789012345678901234567890]"#,
        #"{"escapes": "\"\\\/\b\f\n\r\t", "unicode": "\u00e9\u4e2d\ud83d\ude00", "raw": "é中😀", "empty": ""}"#,
        " \t\r\n {\n \"a\" : [ 1 , { \"b\" : null } ] } \n", #""just a string""#, "42", "true", "null", #"{"a": {"a": {"a": []}}}"#,
        #"{"stake": -5, "stake": 100}"#,
    ]

    @Test("valid JSON reads as the tree JSONDecoder makes of it, repeated fields as their first")
    func sameAsDecoder() throws {
        for text in Self.valid {
            let expected = try HuddleJSON.decoder.decode(JSONValue.self, from: Data(text.utf8))
            #expect(try JSONTree.read(Data(text.utf8)) == expected, "\(text)")
        }
        #expect(try JSONTree.read(Data(#"{"stake": -5, "stake": 100}"#.utf8)) == .object(["stake": .integer(-5)]))
    }

    @Test("what JSONDecoder refuses, the tree refuses as invalid")
    func sameRefusals() {
        let invalid = [
            "", "{", "[1 2]", "tru", "{\"a\" 1}", "'x'", "01", "1.", ".5", "-", "1e", "+1", "[\"\u{01}\"]",
            #""\x""#, #""\u12""#, #""\ud83d""#, #""\ude00""#, "[1] [2]", "{1: 2}", "nul", "1e400", #""unterminated"#, "NaN",
        ]
        for text in invalid {
            #expect(throws: JSONTree.Failure.invalid, "\(text)") { try JSONTree.read(Data(text.utf8)) }
            #expect(throws: (any Error).self, "\(text)") { try HuddleJSON.decoder.decode(JSONValue.self, from: Data(text.utf8)) }
        }
        #expect(throws: JSONTree.Failure.invalid) { try JSONTree.read(Data([0x22, 0xFF, 0xFE, 0x22])) }
        // Foundation's decoder takes a trailing comma; RFC 8259 does not, and neither does the tree.
        for text in ["[1,]", #"{"a":1,}"#] {
            #expect(throws: JSONTree.Failure.invalid, "\(text)") { try JSONTree.read(Data(text.utf8)) }
        }
    }

    @Test("nesting to the limit is read; one level more is refused, however it would have ended")
    func depthLimit() throws {
        let limit = JSONTree.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONTree.read(Data(deepest.utf8)) }
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        #expect(throws: Never.self) { try JSONTree.read(Data(objects.utf8)) }
        for text in ["[" + deepest + "]", String(repeating: "[", count: 100_000), #"{"a":"# + objects + "}"] {
            #expect(throws: JSONTree.Failure.tooDeep) { try JSONTree.read(Data(text.utf8)) }
        }
        #expect(JSONTree.depth(of: Data(#"["[[[[", {"b": "]]]"}]"#.utf8), stoppingPast: 10) == 2)
    }
}
