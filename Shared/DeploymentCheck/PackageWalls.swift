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

    /// The database drivers: only modules with a store link them.
    public static let databaseDrivers: Set<String> = ["SQLKit", "SQLiteKit", "SQLiteNIO", "PostgresKit", "PostgresNIO"]

    /// What the server package's manifest lets `executable` link that it must not: a database
    /// driver, or a layer with a store (`ServiceStore`, `ServiceFeatures`, `ServiceKit`), for an
    /// executable whose module keeps no store (the gateway).
    public static func storeFindings(manifest: String, executable: String) -> [String] {
        let graph = TargetGraph(manifest: manifest)
        let linked = graph.closure(of: executable)
        let forbidden = linked.intersection(databaseDrivers.union(["ServiceStore", "ServiceFeatures", "ServiceKit"]))
        return forbidden.sorted().map { "\(executable) links \($0)" }
    }
}

/// The targets of a package manifest written as Huddle's is, and what each depends on: target names
/// in quotes, products as `.product(name:…)` or as the manifest's own shorthands
/// (`static let sqlKit = product(name: "SQLKit", …)`). Read from the text, so a test needs no build.
struct TargetGraph {
    private(set) var dependencies: [String: Set<String>] = [:]

    init(manifest: String) {
        var shorthands: [String: String] = [:]
        let shorthand = /static let (\w+) = (?:product\(name|byName\(name): "(\w+)"/
        for match in manifest.matches(of: shorthand) { shorthands[String(match.1)] = String(match.2) }
        let declaration = /\.(?:target|testTarget|executableTarget)\(\s*name: "(\w+)"/
        let starts = manifest.matches(of: declaration)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : manifest.endIndex
            let body = manifest[start.range.upperBound..<end]
            guard let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) else {
                dependencies[String(start.1)] = []
                continue
            }
            var names = Set(list.1.matches(of: /"(\w+)"/).map { String($0.1) })
            names.formUnion(list.1.matches(of: /[\s,\[]\.(\w+)\b(?!\()/).compactMap { shorthands[String($0.1)] })
            dependencies[String(start.1)] = names
        }
    }

    /// Every target and product `target` depends on, directly or through other targets of the package.
    func closure(of target: String) -> Set<String> {
        var seen: Set<String> = []
        var queue = Array(dependencies[target] ?? [])
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += dependencies[next] ?? []
        }
        return seen
    }
}

/// The servers read the time in one place, `Effects.system`; everything else takes `now` from the
/// `Effects` its builder was handed, so a test can set the time or fail on a read it did not expect.
public enum OneClock {
    public static let home = "Shared/Effects/Effects.swift"

    /// `files`: the server package's sources (not HuddleKit's, an app's, which has its own) by path
    /// from the repository's root.
    public static func findings(files: [String: String]) -> [String] {
        files.sorted { $0.key < $1.key }.compactMap { path, text in
            guard path != home else { return nil }
            let code = ServiceShape.withoutComments(text)
            guard code.range(of: #"\bDate\(\)|\bDate\.init\b(?!\()|\bDate\.now\b"#, options: .regularExpression) != nil else { return nil }
            return "\(path): reads the system clock; take `now` from the builder's `Effects`"
        }
    }
}
