import Contracts
import Foundation
import Testing

@Suite("JSON values")
struct JSONValueTests {
    /// Both ways a JSON text becomes a value: read whole (`init(parsing:)`, what bodies and frames
    /// are checked as) and decoded as part of a Decodable type.
    static let readings: [@Sendable (String) throws -> JSONValue] = [
        { try JSONValue(parsing: Data($0.utf8)) },
        { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) },
    ]

    @Test("each kind of JSON value, nested in objects and arrays, reads as its own case", arguments: 0..<2)
    func everyKind(reading: Int) throws {
        let text = """
            {"s": "1", "i": 1, "big": 9223372036854775807, "past": 9223372036854775808, "n": 1.5, "t": true, "f": false,
             "z": null, "a": [1, "x", [], {}, false, null, 0, true], "o": {"e": "", "neg": -3, "one": "\\u00e9\\n"}}
            """
        let value = try Self.readings[reading](text)
        #expect(
            value
                == .object([
                    "s": .string("1"), "i": .integer(1), "big": .integer(.max), "past": .number(9_223_372_036_854_775_808),
                    "n": .number(1.5), "t": .bool(true), "f": .bool(false), "z": .null,
                    "a": .array([.integer(1), .string("x"), .array([]), .object([:]), .bool(false), .null, .integer(0), .bool(true)]),
                    "o": .object(["e": .string(""), "neg": .integer(-3), "one": .string("é\n")]),
                ]))
    }

    @Test("a value alone is a JSON text too", arguments: 0..<2)
    func fragments(reading: Int) throws {
        #expect(try Self.readings[reading]("\"x\"") == .string("x"))
        #expect(try Self.readings[reading]("7") == .integer(7))
        #expect(try Self.readings[reading]("false") == .bool(false))
        #expect(try Self.readings[reading]("null") == .null)
    }

    @Test("a body that is not JSON is refused", arguments: 0..<2)
    func notJSON(reading: Int) {
        for text in ["{", "[1 2]", "tru", "{\"a\" 1}", "'x'", "", "[1] 2", "{\"a\": tru}"] {
            #expect(throws: (any Error).self, "\(text)") { try Self.readings[reading](text) }
        }
    }
}
