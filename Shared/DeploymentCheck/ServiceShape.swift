import Foundation

/// The shape every service is written in, as far as its source shows it: an error type of its own,
/// controllers that call domain types only, domain code that takes its time from an injected clock
/// and leaves SQL dialects to the stores. `findings` names each file that breaks it, so the next
/// service is written on the same shape or the test says where it is not.
public enum ServiceShape {
    /// Source files of one service by path relative to its folder (`Controllers/TeamsController.swift`).
    public static func findings(service name: String, files: [String: String]) -> [String] {
        var found: [String] = []
        let errorType = "enum \(name)Error: ProblemError"
        if !files.values.contains(where: { $0.contains(errorType) }) {
            found.append("\(name): no `\(errorType)` (problems of its own, beside CommonError's)")
        }
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let code = withoutComments(text)
            if path.hasPrefix("Controllers/") {
                for rule in controllerRules where code.range(of: rule.pattern, options: .regularExpression) != nil {
                    found.append("\(name)/\(path): a controller \(rule.says)")
                }
            }
            if path.hasPrefix("Domain/") || path.hasPrefix("Controllers/") {
                for rule in domainRules where code.range(of: rule.pattern, options: .regularExpression) != nil {
                    found.append("\(name)/\(path): \(rule.says)")
                }
            }
        }
        return found
    }

    typealias Rule = (pattern: String, says: String)

    /// Controllers decode, call one domain type, and answer; what is stored is the domain's business.
    static let controllerRules: [Rule] = [
        (#"\bany [A-Z][A-Za-z]*Store\b|\bSQL[A-Z][A-Za-z]*Store\("#, "holds a store; call a domain type instead"),
        (#"\bdatabase\.(read|transaction)\b"#, "opens a transaction; the domain type owns it"),
        (#"(?m)^import SQLKit$"#, "imports SQLKit"),
    ]

    static let domainRules: [Rule] = [
        (#"\bDate\(\)"#, "reads the system clock (`Date()`); take `now` as every domain type does"),
        (#"\.kind == \.(postgres|sqlite)|case \.(postgres|sqlite)\b"#, "branches on the SQL dialect; that belongs in a store"),
    ]

    /// The text with its `//` comments taken out, so prose about `Date()` does not count.
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let slash = line.range(of: "//") else { return String(line) }
            return String(line[..<slash.lowerBound])
        }.joined(separator: "\n")
    }
}
