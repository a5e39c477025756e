public import Contracts
public import Foundation

/// Texts in every language Huddle writes, from a String Catalog (`.xcstrings`: Xcode's, which
/// translators edit as they do an app's), read at start as the JSON it is, so it reads the same on
/// Linux. Placeholders are `String(format:)`'s (`%@`, `%1$@`, `%d`), filled in the language's locale.
public struct TextCatalogue: Sendable {
    private let strings: [String: [Language: String]]

    /// The catalogue at `url`; empty (every text its key) when there is none to read, which its
    /// owner checks at start (`isEmpty`).
    public init(contentsOf url: URL?) {
        guard let url, let data = try? Data(contentsOf: url), let read = try? TextCatalogue(json: data) else {
            strings = [:]
            return
        }
        self = read
    }

    public init(json: Data) throws {
        let file = try JSONDecoder().decode(StringCatalog.self, from: json)
        strings = file.strings.mapValues { entry in
            Dictionary(
                uniqueKeysWithValues: (entry.localizations ?? [:]).compactMap { tag, localization in
                    Language(rawValue: tag).map { ($0, localization.stringUnit.value) }
                })
        }
    }

    public var isEmpty: Bool { strings.isEmpty }

    public var keys: [String] { strings.keys.sorted() }

    /// Whether `key` has a text.
    public func has(_ key: String) -> Bool { strings[key] != nil }

    /// The text of `key` in `language` (English where it has none, the key where neither), its placeholders filled.
    public func text(_ key: String, _ language: Language, _ arguments: [any CVarArg] = []) -> String {
        guard let format = strings[key]?[language] ?? strings[key]?[.en] else { return key }
        return arguments.isEmpty ? format : String(format: format, locale: Locale(identifier: language.rawValue), arguments: arguments)
    }

    /// What a translator must fix, one sentence a key: a language without its text, or a text whose
    /// placeholders are not the English ones (`String(format:)` would read the wrong argument).
    public var faults: [String] {
        keys.flatMap { key -> [String] in
            let english = Self.placeholders(strings[key]?[.en])
            return Language.allCases.compactMap { language in
                guard let text = strings[key]?[language] else { return "\(key) has no \(language.rawValue) text" }
                return Self.placeholders(text) == english ? nil : "\(key) in \(language.rawValue) has other placeholders than in en"
            }
        }
    }

    /// The arguments a format takes, by position: `%@` and `%d` in order, `%2$@` at its place.
    static func placeholders(_ format: String?) -> [Int: Character] {
        var found: [Int: Character] = [:], next = 1
        for match in (format ?? "").matches(of: #/%(?:(\d+)\$)?([@d])/#) {
            let position = match.output.1.flatMap { Int($0) } ?? next
            found[position] = match.output.2.first
            next = position + 1
        }
        return found
    }

    /// The String Catalog's JSON, as far as it is read.
    private struct StringCatalog: Decodable {
        struct Entry: Decodable {
            var localizations: [String: Localization]?
        }
        struct Localization: Decodable {
            struct Unit: Decodable { var value: String }
            var stringUnit: Unit
        }
        var strings: [String: Entry]
    }
}
