public import Configuration
public import Contracts
import Foundation
public import ServiceHTTP

/// The word filter applied where players write (App Review's Guideline 1.2 asks for one). A word
/// matches a written word that starts with it, after folding case and accents and undoing the usual
/// digit-for-letter swaps (`sh1t`), so inflections match (`fucking`) but a word hidden inside
/// another does not (`Scunthorpe`). What to do with a match is each field's decision:
/// `refuse` answers 422 `CONTENT_REFUSED` naming the field (names and descriptions, which stay on
/// show), `mask` replaces the word with asterisks (chat, where the rest of the message is worth keeping).
///
/// Configuration: `content.filter.words`, comma-separated words added to the built-in list, and
/// `content.filter.builtin` (`true`; `false` keeps only the configured words).
public struct ContentFilter: Sendable {
    /// Common English profanity and slurs; operators extend it for their languages and communities.
    public static let builtIn = [
        "fuck", "motherfuck", "shit", "cunt", "bitch", "asshole", "bastard", "dickhead", "wanker", "twat", "whore", "slut",
        "nigger", "nigga", "faggot", "fag", "retard", "kike", "spic", "chink", "tranny", "coon",
    ]

    let words: [String]

    public init(words: [String]) {
        self.words = Set(words.map(Self.fold).filter { !$0.isEmpty }).sorted()
    }

    public init(reader: ConfigReader) {
        let configured = reader.list("content.filter.words")
        let builtIn = reader.text("content.filter.builtin", default: "true") == "false" ? [] : Self.builtIn
        self.init(words: builtIn + configured)
    }

    /// Whether `text` has a filtered word.
    public func flags(_ text: String) -> Bool { !matches(in: text).isEmpty }

    /// Throws 422 `CONTENT_REFUSED` naming `field` when `text` has a filtered word.
    public func refuse(_ text: String, field: String) throws {
        guard !flags(text) else { throw ContentRefused(field: field) }
    }

    /// `text` with each filtered word replaced by as many asterisks.
    public func mask(_ text: String) -> String {
        var masked = text
        for range in matches(in: text).reversed() {
            masked.replaceSubrange(range, with: String(repeating: "*", count: text[range].count))
        }
        return masked
    }

    /// The ranges of the written words that a filtered word starts, in order.
    private func matches(in text: String) -> [Range<String.Index>] {
        guard !words.isEmpty else { return [] }
        var found: [Range<String.Index>] = []
        var start: String.Index?
        func close(at end: String.Index) {
            guard let begin = start else { return }
            let written = Self.fold(String(text[begin..<end]))
            if words.contains(where: { written.hasPrefix($0) }) { found.append(begin..<end) }
            start = nil
        }
        for index in text.indices {
            if Self.isWordCharacter(text[index]) {
                if start == nil { start = index }
            } else {
                close(at: index)
            }
        }
        close(at: text.endIndex)
        return found
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "@$".contains(character)
    }

    /// Lower case, no accents, digits and symbols read as the letters they stand in for.
    static func fold(_ text: String) -> String {
        let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        let swaps: [Character: Character] = ["0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"]
        return String(plain.map { swaps[$0] ?? $0 }).trimmingCharacters(in: .whitespaces)
    }
}

/// A write the word filter refused: 422 `CONTENT_REFUSED` naming the field.
public struct ContentRefused: ProblemError {
    public let field: String

    public var problem: Problem {
        Problem(
            .contentRefused, title: "Content refused", detail: localized("\(field) has a word Huddle does not allow."),
            errors: [.invalid(field, "has a word Huddle does not allow")])
    }
}
