public import Contracts
import Foundation

/// The language a request is answered in, from its `Accept-Language` (English when it names none
/// Huddle writes), for the problems its answer may carry.
public enum RequestLanguage {
    @TaskLocal public static var current: Language = .en
}

/// Problems' titles, by code, and every `ProblemText` raised, in each language
/// (`Resources/Problems.xcstrings`). Codes, field names and enum values never change with the language.
public enum ProblemTexts {
    public static let catalogue = TextCatalogue(contentsOf: Bundle.module.url(forResource: "Problems", withExtension: "xcstrings"))

    /// `problem` in `language`: its code's title, and the field errors' messages from the schema's
    /// rules, which `SchemaValidator` words in English. Details are read in the request's language
    /// where they are raised (`ProblemText`).
    static func localized(_ problem: Problem, in language: Language) -> Problem {
        guard language != .en else { return problem }
        var problem = problem
        if catalogue.has("title.\(problem.code)") { problem.title = catalogue.text("title.\(problem.code)", language) }
        guard let errors = problem.errors, !errors.isEmpty else { return problem }
        // A validation problem's detail lists its field errors: both read the same.
        let translated = errors.map { Problem.FieldError(field: $0.field, message: fieldMessage($0.message, in: language)) }
        problem.errors = translated
        if problem.detail == errors.map({ "\($0.field): \($0.message)" }).joined(separator: "; ") {
            problem.detail = translated.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        }
        return problem
    }

    /// A field error's message worded in English by the schema's rules or Contracts' (`TextRule`), in
    /// `language`; one raised as a `ProblemText` is in it already and matches none of them.
    private static func fieldMessage(_ english: String, in language: Language) -> String {
        if catalogue.has(english) { return catalogue.text(english, language) }
        for (pattern, key) in fieldPatterns {
            guard let match = try? pattern.wholeMatch(in: english) else { continue }
            let values = (1..<match.count).compactMap { match[$0].substring.map { String($0) as any CVarArg } }
            return catalogue.text(key, language, values)
        }
        return english
    }

    /// `SchemaValidator`'s messages that carry a value, each with its catalogue key (the English with
    /// `%@` for the value, as a `ProblemText`'s), the longest first where one begins another.
    nonisolated(unsafe) private static let fieldPatterns: [(Regex<AnyRegexOutput>, String)] = [
        (#"must be one of: (.+)"#, "must be one of: %@"), (#"must be (\d+) to (\d+) characters long"#, "must be %@ to %@ characters long"),
        (#"must be at least (\d+) characters long"#, "must be at least %@ characters long"),
        (#"must be at most (\d+) characters long"#, "must be at most %@ characters long"),
        (#"must be (\d+) characters long"#, "must be %@ characters long"),
        (#"must be between (\S+) and (\S+)"#, "must be between %@ and %@"),
        (#"must be at least (\S+)"#, "must be at least %@"), (#"must be at most (\S+)"#, "must be at most %@"),
        (#"must be more than (\S+)"#, "must be more than %@"),
        (#"must have at least (\d+) items?"#, "must have at least %@ items"),
        (#"must have at most (\d+) items?"#, "must have at most %@ items"),
        (#"must have at least (\d+) field\(s\)"#, "must have at least %@ field(s)"),
        // `TextRule`'s and `WebAddressRule`'s, which Contracts words for the clients too.
        (
            #"must be at most (\d+) characters, at least (\d+) of them not blank"#,
            "must be at most %@ characters, at least %@ of them not blank"
        ),
        (#"must be at most (\d+) characters, not all blank"#, "must be at most %@ characters, not all blank"),
        (#"must be at most (\d+) characters"#, "must be at most %@ characters"),
        (#"must be an http\(s\) URL of at most (\d+) characters"#, "must be an http(s) URL of at most %@ characters"),
    ].compactMap { pattern, key in (try? Regex(pattern)).map { ($0, key) } }

    /// A `NamedThing`'s noun in the request's language.
    static func noun(_ english: String) -> String {
        catalogue.has("noun.\(english)") ? catalogue.text("noun.\(english)", RequestLanguage.current) : english
    }
}
