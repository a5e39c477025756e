public import Contracts
import Foundation

/// The language a request is answered in, from its `Accept-Language` (English when it names none
/// Huddle writes), for the problems its answer may carry.
public enum RequestLanguage {
    @TaskLocal public static var current: Language = .en
}

/// Problems' titles, by code, and the details every module shares (`CommonError`'s) in each language
/// (`Resources/Problems.xcstrings`). Codes, field names and enum values never change with the language.
public enum ProblemTexts {
    public static let catalogue = TextCatalogue(contentsOf: Bundle.module.url(forResource: "Problems", withExtension: "xcstrings"))

    /// `problem` in `language`: its code's title; its detail when the catalogue words it (a fixed
    /// sentence, by its English; a 404 for a thing by id). Other details, and the field errors' messages,
    /// stay English.
    static func localized(_ problem: Problem, in language: Language) -> Problem {
        guard language != .en else { return problem }
        var problem = problem
        if catalogue.has("title.\(problem.code)") { problem.title = catalogue.text("title.\(problem.code)", language) }
        guard let errors = problem.errors, !errors.isEmpty else {
            problem.detail = problem.detail.map { detail($0, in: language) }
            return problem
        }
        // A validation problem's detail lists its field errors: both read the same.
        let translated = errors.map { Problem.FieldError(field: $0.field, message: fieldMessage($0.message, in: language)) }
        problem.errors = translated
        if problem.detail == errors.map({ "\($0.field): \($0.message)" }).joined(separator: "; ") {
            problem.detail = translated.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        }
        return problem
    }

    /// A field error's message from the schema rules in `language`; any other stays English.
    private static func fieldMessage(_ english: String, in language: Language) -> String {
        if catalogue.has("field:\(english)") { return catalogue.text("field:\(english)", language) }
        for (pattern, key) in fieldPatterns {
            guard let match = try? pattern.wholeMatch(in: english) else { continue }
            let values = (1..<match.count).compactMap { match[$0].substring.map { String($0) as any CVarArg } }
            return catalogue.text(key, language, values)
        }
        return english
    }

    /// `SchemaValidator`'s messages that carry a value, the longest first where one begins another.
    nonisolated(unsafe) private static let fieldPatterns: [(Regex<AnyRegexOutput>, String)] = [
        (#"must be one of: (.+)"#, "field.oneOf"), (#"must be (\d+) to (\d+) characters long"#, "field.lengthRange"),
        (#"must be at least (\d+) characters long"#, "field.minLength"), (#"must be at most (\d+) characters long"#, "field.maxLength"),
        (#"must be (\d+) characters long"#, "field.length"), (#"must be between (\S+) and (\S+)"#, "field.between"),
        (#"must be at least (\S+)"#, "field.min"), (#"must be at most (\S+)"#, "field.max"), (#"must be more than (\S+)"#, "field.more"),
        (#"must have at least (\d+) items?"#, "field.minItems"), (#"must have at most (\d+) items?"#, "field.maxItems"),
        (#"must have at least (\d+) field\(s\)"#, "field.minFields"),
    ].compactMap { pattern, key in (try? Regex(pattern)).map { ($0, key) } }

    private static func detail(_ english: String, in language: Language) -> String {
        if catalogue.has("detail:\(english)") { return catalogue.text("detail:\(english)", language) }
        // `CommonError.missing`: "No team with id ….".
        if let missing = english.wholeMatch(of: #/No ([a-z ]+) with id (\S+)\./#), catalogue.has("noun.\(missing.output.1)") {
            return catalogue.text(
                "detail.missing", language, [catalogue.text("noun.\(missing.output.1)", language), String(missing.output.2)])
        }
        return english
    }

    /// A shared detail in the request's language.
    static func detail(_ key: String, _ arguments: any CVarArg...) -> String {
        catalogue.text("detail.\(key)", RequestLanguage.current, arguments)
    }
}
