public import Contracts
import Foundation
import ServiceHTTP

/// Holds a rendered Kubernetes overlay to `Wiring`, as `DeploymentCheck` holds docker-compose.yml:
/// every module deployed once; each publisher's subscriber list; the address of every module a
/// module calls or delivers events to, naming a Service that selects that module's pods; the modules'
/// public keys, its own private key and no other module's Secret and, for a module with a store, its database URL as secret files (checked for role and
/// database where the overlay carries the Secret); the gateway's module list; and NetworkPolicies that
/// let exactly the declared callers and publishers in, and a module out to exactly what it calls,
/// its subscribers and its database. Answers what disagrees, one sentence each.
public enum KubernetesCheck {
    public static func findings(_ manifests: KubernetesManifests, modules: [ServiceModule]) -> [String] {
        var findings: [String] = []
        var deployed: [ServiceModule: KubernetesManifests.Workload] = [:]
        for module in modules {
            let running = manifests.workloads.filter { $0.module == module }
            switch running.count {
            case 0: findings.append("no Deployment runs \(module.rawValue) (HUDDLE_MODULE=\(module.rawValue))")
            case 1: deployed[module] = running[0]
            default: findings.append("\(running.map(\.name).sorted().joined(separator: " and ")) all run \(module.rawValue)")
            }
        }
        for (module, workload) in deployed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let subscribers = (Wiring.eventConsumers[module] ?? []).filter { deployed[$0] != nil }
            findings += list(
                variable(module, "EVENTS_SUBSCRIBERS"), of: workload, expected: subscribers, because: "they consume its events")
            for callee in callees(of: module).filter({ deployed[$0] != nil }) {
                findings += address(of: callee, for: workload, deployed: deployed, manifests: manifests)
            }
            findings += internalKeys(of: module, workload, manifests)
            if Wiring.stores.contains(module) { findings += store(of: module, workload, manifests) }
            findings += policies(of: module, workload, deployed: deployed, manifests: manifests)
        }
        findings += scaling(manifests)
        findings += database(manifests, deployed: deployed)
        // Where the overlay has Prometheus scrape pods, it scrapes every module.
        if !manifests.scraped.isEmpty {
            for (module, workload) in deployed.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where !manifests.scraped.contains(where: { $0.matches(workload.podLabels) }) {
                findings.append("\(module.rawValue): no PodMonitor scrapes its pods")
            }
        }
        if let gateway = deployed[.gateway] {
            let expected = Wiring.publicOwners.filter { deployed[$0] != nil }
            findings += list("GATEWAY_MODULES", of: gateway, expected: expected, because: "the gateway routes to them")
        }
        return findings
    }

    /// An autoscaler owns its Deployment's count: a `replicas` written beside it is set again by every
    /// apply, scaling the Deployment back and dropping the sockets of the pods it stops.
    static func scaling(_ manifests: KubernetesManifests) -> [String] {
        var findings: [String] = []
        for autoscaler in manifests.autoscalers {
            guard let workload = manifests.workloads.first(where: { $0.name == autoscaler.target }) else {
                findings.append("the autoscaler \(autoscaler.name) scales \(autoscaler.target), which no Deployment is")
                continue
            }
            if let replicas = workload.replicas {
                findings.append(
                    "\(workload.name): replicas is pinned at \(replicas) beside the autoscaler \(autoscaler.name), which owns the count")
            }
            if autoscaler.maxReplicas < autoscaler.minReplicas {
                findings.append(
                    "the autoscaler \(autoscaler.name) may scale to \(autoscaler.maxReplicas), fewer than its minimum \(autoscaler.minReplicas)"
                )
            }
        }
        return findings
    }

    /// What `module` sends requests to: the modules it calls and the subscribers of its events.
    static func callees(of module: ServiceModule) -> [ServiceModule] {
        let calls = module == .gateway ? Wiring.publicOwners : Wiring.calls[module] ?? []
        return calls + (Wiring.eventConsumers[module] ?? []).filter { !calls.contains($0) }
    }

    /// What sends requests to `module`: its callers, its publishers and, for a public module, the gateway.
    static func callers(of module: ServiceModule) -> Set<ServiceModule> {
        Set(ServiceModule.allCases.filter { callees(of: $0).contains(module) })
    }

    private static func list(
        _ name: String, of workload: KubernetesManifests.Workload, expected: [ServiceModule], because reason: String
    ) -> [String] {
        DeploymentCheck.list(name, of: workload.name, environment: workload.environment, expected: expected, because: reason)
    }

    private static func address(
        of callee: ServiceModule, for workload: KubernetesManifests.Workload, deployed: [ServiceModule: KubernetesManifests.Workload],
        manifests: KubernetesManifests
    ) -> [String] {
        let name = variable(callee, "URL")
        let actual = workload.environment[name] ?? ""
        guard let target = deployed[callee] else { return [] }
        let reaching = manifests.services.filter { service in
            !service.selector.isEmpty && service.selector.allSatisfy { target.podLabels[$0.key] == $0.value }
        }
        let valid = reaching.flatMap { service in service.ports.map { "http://\(service.name):\($0)" } }
        guard !valid.contains(actual) else { return [] }
        let expected = valid.first ?? "a Service that selects \(callee.rawValue)'s pods"
        return ["\(workload.name): \(name) is '\(actual)' but \(workload.name) reaches \(callee.rawValue) at \(expected)"]
    }

    /// Every module reads all public keys (`internal-keys` in the huddle-internal Secret); one that
    /// calls others holds its own private key (`<module>-internal-key` in its own Secret), and no pod
    /// projects another module's Secret. Where the overlay carries them, each private key is the one
    /// the public list gives for its module.
    private static func internalKeys(of module: ServiceModule, _ workload: KubernetesManifests.Workload, _ manifests: KubernetesManifests)
        -> [String]
    {
        var findings: [String] = []
        if !workload.secretFiles.contains("huddle-internal") {
            findings.append("\(workload.name): the huddle-internal Secret (internal-keys) is not among its secret files")
        }
        for other in ServiceModule.allCases where other != module && workload.secretFiles.contains("huddle-\(other.rawValue)") {
            findings.append(
                "\(workload.name): projects huddle-\(other.rawValue), \(other.rawValue)'s Secret, and could speak as \(other.rawValue)")
        }
        guard Wiring.makesInternalCalls(module) else { return findings }
        let secret = "huddle-\(module.rawValue)", file = "\(module.rawValue)-internal-key"
        if !workload.secretFiles.contains(secret) {
            findings.append("\(workload.name): the \(secret) Secret (\(file)) is not among its secret files")
        }
        guard let list = manifests.secrets["huddle-internal"]?["internal-keys"], let carried = manifests.secrets[secret] else {
            return findings
        }
        guard let privateKey = carried[file] else {
            return findings + ["\(secret): no \(file), which signs \(module.rawValue)'s internal calls"]
        }
        if !InternalKeys.pairs(privateKey: privateKey, with: list, for: module) {
            findings.append("\(secret): \(file) is not the private key of the public key internal-keys gives for \(module.rawValue)")
        }
        return findings
    }

    private static func store(of module: ServiceModule, _ workload: KubernetesManifests.Workload, _ manifests: KubernetesManifests)
        -> [String]
    {
        let secret = "huddle-\(module.rawValue)"
        guard workload.secretFiles.contains(secret) else {
            return ["\(workload.name): the \(secret) Secret (\(module.rawValue)-db-url) is not among its secret files"]
        }
        guard let carried = manifests.secrets[secret] else { return [] }
        let owner = "huddle_\(module.rawValue)"
        guard let url = carried["\(module.rawValue)-db-url"].flatMap(URLComponents.init(string:)), url.scheme == "postgres" else {
            return ["\(secret): \(module.rawValue)-db-url must be a postgres:// URL"]
        }
        var findings: [String] = []
        if url.user != owner || url.path != "/\(owner)" {
            findings.append("\(secret): \(module.rawValue)-db-url must use role and database \(owner)")
        }
        if let initSQL = manifests.configMaps["postgres-init"]?["init.sql"],
            !initSQL.contains("CREATE DATABASE \(owner) OWNER \(owner);")
        {
            findings.append("postgres-init: init.sql does not create \(owner)")
        }
        return findings
    }

    private static func policies(
        of module: ServiceModule, _ workload: KubernetesManifests.Workload, deployed: [ServiceModule: KubernetesManifests.Workload],
        manifests: KubernetesManifests
    ) -> [String] {
        let applying = manifests.policies.filter { $0.selects.matches(workload.podLabels) }
        let ingress = applying.flatMap(\.ingressPeers), egress = applying.flatMap(\.egressPeers)
        func reached(by peers: [KubernetesManifests.LabelSelector?]) -> Set<ServiceModule> {
            Set(deployed.filter { _, other in peers.contains { $0?.matches(other.podLabels) ?? true } }.keys)
        }
        var findings: [String] = []
        let openToAll = ingress.contains { $0 == nil }
        if module == .gateway {
            if !openToAll { findings.append("\(workload.name): no NetworkPolicy lets clients reach the gateway") }
        } else {
            if openToAll { findings.append("\(workload.name): a NetworkPolicy lets anyone in; only its callers may call it") }
            findings += compare(reached(by: ingress), callers(of: module), "\(workload.name): NetworkPolicies let in")
        }
        let expectedOut = Set(callees(of: module).filter { deployed[$0] != nil })
        findings += compare(reached(by: egress).subtracting([module]), expectedOut, "\(workload.name): NetworkPolicies let it reach")
        let database = ["huddle.dev/database": "postgres"]
        if Wiring.stores.contains(module), !egress.contains(where: { $0?.matches(database) ?? true }) {
            findings.append("\(workload.name): no NetworkPolicy lets it reach its database")
        }
        return findings
    }

    private static func compare(_ actual: Set<ServiceModule>, _ expected: Set<ServiceModule>, _ prefix: String) -> [String] {
        guard actual != expected else { return [] }
        let names = { (modules: Set<ServiceModule>) in modules.isEmpty ? "none" : modules.map(\.rawValue).sorted().joined(separator: ",") }
        return ["\(prefix) \(names(actual)) but Wiring declares \(names(expected))"]
    }

    static func variable(_ module: ServiceModule, _ suffix: String) -> String { DeploymentCheck.variable(module, suffix) }
}
