import Foundation

/// The shape every service is written in, as far as its source shows it: an error type of its own,
/// configuration read in settings types only, controllers in `Controllers/` that call domain types only
/// from named handlers,
/// domain code that leaves SQL dialects to the stores and calls other use cases rather than their stores,
/// event handlers named for what they take, background work in `Workers/` on ServiceKit's loops (the
/// clock is held to `OneClock`, across the servers). `findings` names each file that breaks it, so the next service
/// is written on the same shape or the test says where it is not. A part of a service with a folder
/// of its own (games' `Matches/`) is held to the same rules by its inner folders' names.
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
            func breaks(_ rules: [Rule], saying prefix: String = "") {
                for rule in rules where code.range(of: rule.pattern, options: .regularExpression) != nil {
                    found.append("\(name)/\(path): \(prefix)\(rule.says)")
                }
            }
            let folders = Set(path.split(separator: "/").dropLast().map(String.init))
            if folders.contains("Controllers") { breaks(controllerRules, saying: "a controller ") } else { breaks([controllerPlaceRule]) }
            if folders.contains("Domain") || folders.contains("Controllers") { breaks(domainRules) }
            if !path.hasSuffix("Settings.swift") { breaks([configurationRule]) }
            if !folders.contains("Workers") { breaks([workerRule]) }
            breaks([loopRule])
            if folders.contains("Domain") {
                for reach in reachesIntoStores(code, besides: useCaseStores(in: files, besides: path)) {
                    found.append("\(name)/\(path): reaches into another use case's store (`\(reach)`); call the use case")
                }
            }
            if let type = handlersType(in: code), !type.hasSuffix("Events") || !path.hasSuffix("/\(type).swift") {
                found.append(
                    "\(name)/\(path): registers event handlers in `\(type)`; name them by what they react to, `<Module>Events` in a file of that name"
                )
            }
        }
        return found
    }

    /// The names of the stores the use cases of `files` other than `path` hold (`let games: any GameStore`),
    /// less those `path` holds itself.
    static func useCaseStores(in files: [String: String], besides path: String) -> Set<String> {
        func stores(_ text: String) -> Set<String> { Set(text.matches(of: /\blet (\w+): any \w+Store\b/).map { String($0.1) }) }
        var theirs: Set<String> = []
        for (other, text) in files where other != path && other.split(separator: "/").contains("Domain") { theirs.formUnion(stores(text)) }
        return theirs.subtracting(stores(files[path] ?? ""))
    }

    /// `useCase.store.method(` where `useCase` is a use case this code holds (`let games: Games`) and
    /// `store` one of the stores that use case keeps to itself.
    static func reachesIntoStores(_ code: String, besides stores: Set<String>) -> [String] {
        guard !stores.isEmpty else { return [] }
        let held = Set(code.matches(of: /\blet (\w+): (\w+)\b/).filter { !$0.2.hasSuffix("Store") }.map { String($0.1) })
        return code.matches(of: /\b([a-z]\w*)\.([a-z]\w*)\.[a-z]\w*\(/).filter {
            held.contains(String($0.1)) && stores.contains(String($0.2))
        }
        .map { "\($0.1).\($0.2)" }
    }

    /// The type whose `static let handlers = EventHandlers<…>` the code declares, if any.
    static func handlersType(in code: String) -> String? {
        guard let handlers = code.range(of: "static let handlers = EventHandlers<") else { return nil }
        return code[..<handlers.lowerBound].matches(of: /(?m)^(?:enum|struct|final class|actor) (\w+)/).last.map { String($0.1) }
    }

    typealias Rule = (pattern: String, says: String)

    /// Controllers decode, call one domain type, and answer; what is stored is the domain's business.
    static let controllerRules: [Rule] = [
        (#"\bany [A-Z][A-Za-z]*Store\b|\bSQL[A-Z][A-Za-z]*Store\("#, "holds a store; call a domain type instead"),
        (#"\bdatabase\.(read|transaction)\b"#, "opens a transaction; the domain type owns it"),
        (#"(?m)^import SQLKit$"#, "imports SQLKit"),
        (#"\b(AuthClient|CatalogClient|SnapshotClient|InternalClient|EventsClient)\b"#, "calls another module; a domain type does"),
        // A handler is a method named for its operation, documented with its route, so a reader
        // jumps from `router.on(GamesAPI.myGames, use: myGames)` to it rather than grepping closures.
        (
            #"\brouter\.(on|page|form)\([^{}\n]*\)\s*\{|\b(use|answering|encoded|conditional): \{"#,
            "registers an anonymous handler; name it (`use: myGames`)"
        ),
    ]

    /// What answers requests lives in `Controllers/`, where the rules above hold it.
    static let controllerPlaceRule: Rule = (
        #"(?m)^\s*(final class|struct) \w+: ([\w ,]*, )?Controller\b"#, "is a controller outside `Controllers/`"
    )

    static let domainRules: [Rule] = [
        (#"\.kind == \.(postgres|sqlite)|case \.(postgres|sqlite)\b"#, "branches on the SQL dialect; that belongs in a store")
    ]

    /// A module's keys are read in one place, its `<Name>Settings` (or a provider's `…Settings`), which
    /// documents them; the builder hands the values on.
    static let configurationRule: Rule = (
        #"\breader\.(text|integer|milliseconds|list|string|int|bool|double)\("#,
        "reads configuration keys; read them in the module's settings type"
    )

    /// What runs beside the server (pollers, sweepers, push and reminder workers, listeners) lives in
    /// `Workers/`, so a newcomer finds everything a module does on its own in one folder.
    static let workerRule: Rule = (
        #"(?m)^\s*(final class|struct|actor) \w+: ([\w ,]*, )?Service\b"#,
        "is a background service outside `Workers/`"
    )

    /// Background work repeats through `Database.repeatUntilShutdown` or listens through
    /// `keepListening`: both wait for migrations, stop on shutdown and never spin on an error.
    static let loopRule: Rule = (#"while !Task\.isCancelled"#, "loops by hand; use `repeatUntilShutdown` or `keepListening`")

    /// The text with its `//` comments taken out, so prose about `Date()` does not count.
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let slash = line.range(of: "//") else { return String(line) }
            return String(line[..<slash.lowerBound])
        }.joined(separator: "\n")
    }
}
