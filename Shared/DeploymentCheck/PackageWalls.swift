import Foundation

/// The walls between the packages, as far as their text shows them. HuddleKit's package is what every
/// app built on Huddle compiles and ships: it holds the public wire types and descriptions and nothing
/// of the servers' insides — no internal operation, no event, no console page, no schema machinery —
/// and resolves no package. (The compiler holds the rest: `InternalCaller`, `EventType` and the
/// console's types are declared in the servers' `ServerContracts` only, so HuddleKit's package cannot
/// even name them; this catches what text alone can leak, such as an internal path.)
public enum PackageWalls {
    /// `manifest` is HuddleKit's Package.swift; `files` its sources by path.
    public static func appPackageFindings(manifest: String, files: [String: String]) -> [String] {
        var found: [String] = []
        if manifest.contains(".package(") { found.append("Package.swift: resolves a package; an app must resolve nothing of the server") }
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let code = ServiceShape.withoutComments(text)
            for (pattern, says) in serverInsides where code.range(of: pattern, options: .regularExpression) != nil {
                found.append("\(path): \(says)")
            }
        }
        return found
    }

    static let serverInsides: [ServiceShape.Rule] = [
        (#""/internal[/"]|\binternalPrefix\b|\bInternalCaller\b"#, "describes an internal operation"),
        (
            #"\b(EventType|EventEnvelope|EventBatch|EventHandlers|DeadLetters?)\b|\b(Auth|Catalog|Game|Match|Round|Betting|Chat|Notify|Moderation|Purchases)Event\b"#,
            "names an event"
        ),
        (#"\b(HTMLPage|SeeOther|FormBody|ConsoleAPI)\b|"/admin"#, "describes a console page"),
        (#"\b(SchemaReader|SchemaValidator)\b"#, "reads or checks schemas"),
    ]
}
