/// How long text a person types (a name, a search, an address) may be, checked the same way by the
/// servers and by the OpenAPI document: at most `length.upperBound` characters as sent, at least
/// `length.lowerBound` of them not blank, and no control characters (PostgreSQL cannot store NUL,
/// and SQLite's full-text queries end at one). Servers store the text without the blanks at its ends.
///
/// Characters are Unicode scalars, which is what JSON Schema's `minLength`/`maxLength` count. Swift's
/// `String.count` counts grapheme clusters instead: "é" typed as e + combining accent is one to Swift
/// and two to every schema validator, so a check written with `count` disagrees with the document.
public struct TextRule: Sendable, Equatable {
    public let length: ClosedRange<Int>

    public init(_ length: ClosedRange<Int>) { self.length = length }

    /// What is wrong with `value`, or nil when it may be stored.
    public func problem(_ value: String) -> String? {
        let scalars = value.unicodeScalars
        if scalars.contains(where: Control.contains) { return "must not contain control characters" }
        let tooLong = scalars.count > length.upperBound
        let tooShort = length.lowerBound > 0 && scalars.lazy.filter { !Blank.contains($0) }.count < length.lowerBound
        guard tooLong || tooShort else { return nil }
        switch length.lowerBound {
        case 0: return "must be at most \(length.upperBound) characters"
        case 1: return "must be at most \(length.upperBound) characters, not all blank"
        default: return "must be at most \(length.upperBound) characters, at least \(length.lowerBound) of them not blank"
        }
    }

    /// `value` made to follow the rule, for text a person did not type here (a name a provider gives):
    /// control characters dropped, blanks at the ends trimmed, whole characters cut from the end until
    /// it is short enough; nil when too little is left.
    public func conforming(_ value: String) -> String? {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: value.unicodeScalars.filter { !Control.contains($0) })
        let text = String(scalars).trimmingBlanks
        // One pass, counting as it goes: a request body may hold a megabyte of it.
        var kept = 0
        var end = text.startIndex
        for character in text {
            kept += character.unicodeScalars.count
            guard kept <= length.upperBound else { break }
            end = text.index(after: end)
        }
        let cut = String(text[..<end]).trimmingBlanks
        return problem(cut) == nil ? cut : nil
    }

    /// The document's statement of this rule: characters that are not controls, `lowerBound` of
    /// them not blank either.
    public var schema: JSONSchema {
        let allowed = "[^\(Control.members)]*"
        let counted = length.lowerBound > 0 ? "(?:[^\(Control.members)\(Blank.members)]\(allowed)){\(length.lowerBound)}" : ""
        return JSONSchema.text(length).pattern(JSONSchema.whole(allowed + counted))
    }
}

extension String {
    /// The text without blanks at either end, as servers store what people type.
    public var trimmingBlanks: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Blank.contains($0) }),
            let last = scalars.lastIndex(where: { !Blank.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// The blank characters: those of Foundation's `CharacterSet.whitespacesAndNewlines` on Linux (a test
/// holds the two equal), zero-width space included, which Apple's Foundation no longer counts but
/// which shows nothing either. Listed by code point because ECMA-262, Python and ICU regular
/// expressions each give `\s` a different set, and the document's patterns must mean the same to
/// every client.
public enum Blank {
    static let ranges: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200B, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
    ]

    public static func contains(_ scalar: Unicode.Scalar) -> Bool { ranges.contains { $0.contains(scalar.value) } }

    /// The members of a regular-expression character class of these characters.
    static let members = classMembers(ranges)
}

/// Control characters (Unicode category Cc) other than the blank ones (tab, line breaks).
public enum Control {
    static let ranges: [ClosedRange<UInt32>] = [0x00...0x08, 0x0E...0x1F, 0x7F...0x84, 0x86...0x9F]

    public static func contains(_ scalar: Unicode.Scalar) -> Bool { ranges.contains { $0.contains(scalar.value) } }

    static let members = classMembers(ranges)
}

/// `\u0009-\u000D\u0020…`: code points as every regex dialect reads them.
private func classMembers(_ ranges: [ClosedRange<UInt32>]) -> String {
    func escaped(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    return ranges.map { $0.count == 1 ? escaped($0.lowerBound) : "\(escaped($0.lowerBound))-\(escaped($0.upperBound))" }.joined()
}
