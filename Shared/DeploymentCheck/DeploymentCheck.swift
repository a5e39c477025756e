public import Contracts
import Foundation
import ServiceHTTP

/// Holds docker-compose.yml and deploy/postgres/init.sql to `Wiring`: every module in a service of
/// its own; each publisher's subscriber list; the address of every module a service calls; for each
/// module with a store, its database URL, the password variable the postgres container gets, and
/// its role and database in init.sql; each module's own internal key and nobody else's; the gateway's module list. Answers what disagrees, one
/// sentence each.
public enum DeploymentCheck {
    public static func findings(compose: ComposeFile, initSQL: String, modules: [ServiceModule]) -> [String] {
        var findings: [String] = []
        var deployed: [ServiceModule: ComposeFile.Service] = [:]
        for module in modules {
            let running = compose.services.values.filter { $0.module == module }
            switch running.count {
            case 0: findings.append("no service runs \(module.rawValue) (HUDDLE_MODULE: \(module.rawValue))")
            case 1: deployed[module] = running[0]
            default: findings.append("\(running.map(\.name).sorted().joined(separator: " and ")) all run \(module.rawValue)")
            }
        }
        for (module, service) in deployed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            findings += subscribers(of: module, in: service, deployed: deployed)
            findings += addresses(called: callees(of: module, deployed: deployed), by: service, deployed: deployed)
            if Wiring.stores.contains(module) { findings += store(of: module, in: service, compose: compose, initSQL: initSQL) }
            findings += internalKeys(of: module, in: service)
        }
        if let gateway = deployed[.gateway] {
            let expected = Wiring.publicOwners.filter { deployed[$0] != nil }
            findings += list("GATEWAY_MODULES", in: gateway, expected: expected, because: "the gateway routes to them")
        }
        return findings
    }

    /// Every module reads all public keys; one that calls others holds its own private key, from a
    /// variable of its own, and no other module's.
    private static func internalKeys(of module: ServiceModule, in service: ComposeFile.Service) -> [String] {
        var findings: [String] = []
        if service.environment["INTERNAL_KEYS"]?.contains("${INTERNAL_KEYS") != true {
            findings.append("\(service.name): INTERNAL_KEYS must come from ${INTERNAL_KEYS}")
        }
        let own = variable(module, "INTERNAL_KEY")
        if Wiring.makesInternalCalls(module), service.environment[own]?.hasPrefix("${\(own)") != true {
            findings.append("\(service.name): \(own) must come from ${\(own)}: it signs \(module.rawValue)'s internal calls")
        }
        for other in ServiceModule.allCases where other != module {
            let key = variable(other, "INTERNAL_KEY")
            if service.environment[key] != nil || service.environment.values.contains(where: { $0.contains("${\(key)") }) {
                findings.append("\(service.name): holds \(key), \(other.rawValue)'s key, and could speak as \(other.rawValue)")
            }
        }
        return findings
    }

    private static func callees(of module: ServiceModule, deployed: [ServiceModule: ComposeFile.Service]) -> [ServiceModule] {
        let callees = module == .gateway ? Wiring.publicOwners : Wiring.calls[module] ?? []
        return callees.filter { deployed[$0] != nil }
    }

    private static func subscribers(
        of module: ServiceModule, in service: ComposeFile.Service, deployed: [ServiceModule: ComposeFile.Service]
    ) -> [String] {
        let expected = (Wiring.eventConsumers[module] ?? []).filter { deployed[$0] != nil }
        return list(variable(module, "EVENTS_SUBSCRIBERS"), in: service, expected: expected, because: "they consume its events")
    }

    private static func list(_ name: String, in service: ComposeFile.Service, expected: [ServiceModule], because reason: String)
        -> [String]
    {
        list(name, of: service.name, environment: service.environment, expected: expected, because: reason)
    }

    /// A comma-separated module list in `owner`'s environment that must name exactly `expected`
    /// (absent means none); compose services and Kubernetes Deployments alike.
    static func list(
        _ name: String, of owner: String, environment: [String: String], expected: [ServiceModule], because reason: String
    ) -> [String] {
        let actual = Set((environment[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let wanted = Set(expected.map(\.rawValue))
        guard actual != wanted else { return [] }
        let shown = wanted.isEmpty ? "unset" : wanted.sorted().joined(separator: ",")
        return ["\(owner): \(name) is '\(environment[name] ?? "")' but should be \(shown): \(reason)"]
    }

    private static func addresses(
        called callees: [ServiceModule], by service: ComposeFile.Service, deployed: [ServiceModule: ComposeFile.Service]
    ) -> [String] {
        callees.compactMap { callee in
            guard let target = deployed[callee] else { return nil }
            let port = target.environment[variable(callee, "HTTP_PORT")] ?? String(callee.defaultPort)
            let expected = "http://\(target.name):\(port)"
            let name = variable(callee, "URL")
            let actual = service.environment[name] ?? ""
            guard actual != expected else { return nil }
            return "\(service.name): \(name) is '\(actual)' but \(service.name) calls \(callee.rawValue) at \(expected)"
        }
    }

    private static func store(of module: ServiceModule, in service: ComposeFile.Service, compose: ComposeFile, initSQL: String)
        -> [String]
    {
        let name = variable(module, "DB_URL")
        let owner = "huddle_\(module.rawValue)"
        guard let url = service.environment[name], let parts = DatabaseURL(url) else {
            return ["\(service.name): \(name) must be a postgres:// URL with the password as a ${…} variable"]
        }
        var findings: [String] = []
        if !parts.passwordRequired {
            findings.append(
                "\(service.name): \(name) must require its password (${\(parts.passwordVariable):?…}): unset, it would be empty")
        }
        if parts.user != owner || parts.database != owner {
            findings.append("\(service.name): \(name) must use role and database \(owner), not \(parts.user) and \(parts.database)")
        }
        guard let postgres = compose.postgres else { return findings + ["no postgres service for \(service.name)'s store"] }
        if parts.host != postgres.name { findings.append("\(service.name): \(name) must point at the \(postgres.name) service") }
        if postgres.environment[parts.passwordVariable] == nil {
            findings.append("\(postgres.name): needs \(parts.passwordVariable) for init.sql to create \(owner)")
        }
        let statements = [
            "\\set \(module.rawValue)_password `echo \"$\(parts.passwordVariable)\"`",
            "CREATE ROLE \(owner) LOGIN PASSWORD :'\(module.rawValue)_password';",
            "CREATE DATABASE \(owner) OWNER \(owner);",
        ]
        for statement in statements where !initSQL.contains(statement) {
            findings.append("init.sql: missing `\(statement)` for \(service.name)'s store")
        }
        return findings
    }

    /// `catalog`, `EVENTS_SUBSCRIBERS` → `CATALOG_EVENTS_SUBSCRIBERS`, the variable for `catalog.events.subscribers`.
    static func variable(_ module: ServiceModule, _ suffix: String) -> String {
        module.rawValue.uppercased().replacingOccurrences(of: "-", with: "") + "_" + suffix
    }

    /// `postgres://user:${PASSWORD:?message}@host:5432/database?…`
    struct DatabaseURL {
        let user: String, passwordVariable: String, host: String, database: String
        /// Whether compose refuses to start without the password (`:?`) rather than use an empty one.
        let passwordRequired: Bool

        init?(_ text: String) {
            guard text.hasPrefix("postgres://"), let at = text.lastIndex(of: "@") else { return nil }
            let credentials = text[text.index(text.startIndex, offsetBy: "postgres://".count)..<at].split(separator: ":", maxSplits: 1)
            guard credentials.count == 2, credentials[1].hasPrefix("${"), credentials[1].hasSuffix("}") else { return nil }
            let location = text[text.index(after: at)...].split(separator: "/", maxSplits: 1)
            guard location.count == 2 else { return nil }
            user = String(credentials[0])
            let reference = credentials[1].dropFirst(2).dropLast()
            passwordVariable = String(reference.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            passwordRequired = reference.dropFirst(passwordVariable.count).hasPrefix(":?")
            host = String(location[0].split(separator: ":")[0])
            database = String(location[1].split(separator: "?")[0])
        }
    }
}
