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
        problem.detail = problem.detail.map { detail($0, in: language) }
        return problem
    }

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
