import Contracts
import Foundation
import Testing

/// Servers check typed text with `TextRule` and `WebAddressRule`; the document states the same rules
/// as lengths and patterns. These hold the two to the same answers, with an ICU regular expression
/// standing in for a client's validator.
@Suite("Text rules")
struct TextRuleTests {
    @Test("blank means Foundation's whitespace and newlines, and zero-width space")
    func blankIsWhitespace() {
        let zeroWidthSpace: UInt32 = 0x200B
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let foundation = CharacterSet.whitespacesAndNewlines.contains(scalar) || value == zeroWidthSpace
            #expect(Blank.contains(scalar) == foundation, "U+\(String(value, radix: 16))")
        }
    }

    @Test("lengths count Unicode scalars, as JSON Schema does")
    func scalarLengths() {
        let rule = TextRule(2...4)
        #expect(rule.problem("ab") == nil)
        #expect(rule.problem("e\u{301}e\u{301}") == nil)  // two letters, four scalars
        #expect(rule.problem("e\u{301}e\u{301}e") != nil)  // three letters, five scalars
        #expect(rule.problem(" a ") != nil)
        #expect(rule.problem(" a b") == nil)
        #expect(rule.problem("\u{1C}\u{1C}") != nil)  // control characters, which Python's \s calls blank
        #expect(rule.problem("\u{A0}\u{3000}") != nil)
        #expect(rule.problem("a\u{0}b") != nil)
        #expect(rule.problem("a\tb") == nil)
    }

    @Test("the pattern accepts exactly what the server accepts", arguments: [1, 2, 3])
    func patternAgrees(minimum: Int) throws {
        let rule = TextRule(minimum...10)
        let schema = rule.schema
        let pattern = try NSRegularExpression(pattern: try #require(schema.pattern))
        let samples = [
            "", " ", "a", " a", "a ", "ab", "a b", "\t\n", "\u{85}x", "\u{FEFF}", "\u{1C}\u{1D}\u{1E}", "x\u{2028}y\u{3000}z",
            "e\u{301}", "  abc  ", "\u{A0}a\u{A0}", "ab\u{0}", "\u{7F}xy", "x\u{9F}y", "x\ny\tz", String(repeating: "a", count: 11),
        ]
        for sample in samples {
            let range = NSRange(sample.startIndex..., in: sample)
            let byPattern = pattern.firstMatch(in: sample, range: range) != nil
            let scalars = sample.unicodeScalars.count
            let bySchema = byPattern && scalars >= (schema.minLength ?? 0) && scalars <= (schema.maxLength ?? .max)
            #expect(bySchema == (rule.problem(sample) == nil), "\(sample.debugDescription)")
        }
    }

    @Test("text is stored without the blanks at its ends")
    func trimming() {
        #expect("\u{3000} Tartu Volley \n".trimmingBlanks == "Tartu Volley")
        #expect(" \t ".trimmingBlanks == "")
        #expect("\u{1C}x".trimmingBlanks == "\u{1C}x")
    }

    @Test("text from elsewhere is made to follow the rule: controls dropped, ends trimmed, whole characters cut")
    func conforming() throws {
        let rule = TextRule(2...4)
        #expect(rule.conforming(" a\u{0}b\u{7F} ") == "ab")
        #expect(rule.conforming("abce\u{301}") == "abc")  // the accented letter goes whole
        #expect(rule.conforming("e\u{301}e\u{301}e") == "e\u{301}e\u{301}")
        #expect(rule.conforming("abc def") == "abc")  // cut, then trimmed
        #expect(rule.conforming("a\u{1C}\u{1C}") == nil)
        #expect(rule.conforming(" \u{3000} ") == nil)
        // A request body may hold a megabyte of it (the cut is one pass).
        #expect(TextRule(1...100).conforming(String(repeating: "é", count: 1_000_000)) == String(repeating: "é", count: 100))
        for sample in ["Tartu", "\u{0}x\u{0}y", "  Ülle Üks  ", String(repeating: "é", count: 9)] {
            let made = try #require(rule.conforming(sample), "\(sample.debugDescription)")
            #expect(rule.problem(made) == nil, "\(sample.debugDescription)")
        }
    }

    @Test("web addresses: http(s), a host, URI characters only; the pattern agrees")
    func webAddresses() throws {
        let rule = WebAddressRule(maxLength: 40)
        let pattern = try NSRegularExpression(pattern: try #require(rule.schema.pattern))
        let accepted = ["https://huddle.dev", "HTTP://a.b:8080/x?y=1#z", "https://x.y/%C3%A4", "http://localhost"]
        let refused = [
            "", "ftp://huddle.dev", "https://", "https:// huddle.dev", "https://huddle.dev/a b", "https://huddle.dev\n",
            "https://huddle.dev/ä", "javascript:alert(1)", "https://\(String(repeating: "a", count: 40)).dev",
        ]
        for value in accepted + refused {
            let byPattern = pattern.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
            let bySchema = byPattern && value.unicodeScalars.count <= 40
            #expect(bySchema == accepted.contains(value), "\(value)")
            #expect((rule.problem(value) == nil) == accepted.contains(value), "\(value)")
        }
    }
}
