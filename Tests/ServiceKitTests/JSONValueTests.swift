import Contracts
import Foundation
import Testing

@Suite("JSON values")
struct JSONValueTests {
    @Test("each kind of JSON value, nested in objects and arrays, reads as its own case")
    func everyKind() throws {
        let text = """
            {"s": "1", "i": 1, "big": 9223372036854775807, "past": 9223372036854775808, "n": 1.5, "t": true, "f": false,
             "z": null, "a": [1, "x", [], {}, false, null], "o": {"e": "", "neg": -3}}
            """
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(
            value
                == .object([
                    "s": .string("1"), "i": .integer(1), "big": .integer(.max), "past": .number(9_223_372_036_854_775_808),
                    "n": .number(1.5), "t": .bool(true), "f": .bool(false), "z": .null,
                    "a": .array([.integer(1), .string("x"), .array([]), .object([:]), .bool(false), .null]),
                    "o": .object(["e": .string(""), "neg": .integer(-3)]),
                ]))
    }

    /// What `Request.decodeJSON` relies on, with `JSONTreeTests`: the tree the schema check sees and
    /// the type it decodes take the same copy of a repeated field.
    @Test("a field given twice reads as its first, as a Decodable type reads it")
    func repeatedField() throws {
        struct Stake: Decodable { let stake: Int64 }
        let text = Data(#"{"stake": -5, "stake": 100}"#.utf8)
        #expect(try HuddleJSON.decoder.decode(JSONValue.self, from: text) == .object(["stake": .integer(-5)]))
        #expect(try HuddleJSON.decoder.decode(Stake.self, from: text).stake == -5)
    }

    @Test("a body that is not JSON is refused")
    func notJSON() {
        for text in ["{", "[1 2]", "tru", "{\"a\" 1}", "'x'"] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        }
    }
}
