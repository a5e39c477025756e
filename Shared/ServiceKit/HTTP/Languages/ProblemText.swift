public import Contracts
import Foundation

/// A sentence a problem tells its reader, written where it is raised as English with its values
/// (`"must hold at most \(max) ids"`) and read in the request's language. Its catalogue key is the
/// English with `%@` where each value goes, as Xcode keys a `String(localized:)`; a test reads
/// every one raised in the sources and fails when the catalogue lacks it.
public struct ProblemText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The catalogue key: the English, `%@` for each value.
    public let format: String
    public let values: [String]
    /// The sentence in English, its values in place.
    public let english: String

    public init(stringLiteral value: String) {
        format = value.replacingOccurrences(of: "%", with: "%%")
        values = []
        english = value
    }

    /// A sentence made elsewhere (a contract's decoder's), looked up as it is.
    public init(english: String) {
        format = english.replacingOccurrences(of: "%", with: "%%")
        values = []
        self.english = english
    }

    public init(stringInterpolation: StringInterpolation) {
        format = stringInterpolation.format
        values = stringInterpolation.values
        english = stringInterpolation.english
    }

    public var description: String { english }

    /// The sentence in `language`: the catalogue's text with the values in place, or the English
    /// when the catalogue has none.
    public func text(in language: Language) -> String {
        guard language != .en, ProblemTexts.catalogue.has(format) else { return english }
        return ProblemTexts.catalogue.text(format, language, values)
    }

    /// The sentence in the language of the request being answered.
    public var localized: String { text(in: RequestLanguage.current) }

    public struct StringInterpolation: StringInterpolationProtocol {
        var format = "", english = "", values: [String] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            format += literal.replacingOccurrences(of: "%", with: "%%")
            english += literal
        }

        public mutating func appendInterpolation(_ value: some Any) {
            let text = String(describing: value)
            format += "%@"
            english += text
            values.append(text)
        }
    }
}

/// `text` in the language of the request being answered: for a problem's detail raised as English.
public func localized(_ text: ProblemText) -> String { text.localized }

extension Problem.FieldError {
    /// `field` refused for `message`, in the language of the request being answered.
    public static func invalid(_ field: String, _ message: ProblemText) -> Self { .init(field: field, message: message.localized) }
}
