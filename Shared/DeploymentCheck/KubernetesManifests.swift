public import Contracts
import Foundation
import Yams

/// A rendered Kustomize overlay (`kubectl kustomize deploy/kubernetes/overlays/<name>`) as the wiring
/// check reads it: the Deployments with their containers' environment (ConfigMaps behind `envFrom`
/// resolved), Services, Secrets, ConfigMaps and NetworkPolicies.
public struct KubernetesManifests: Sendable {
    public struct Workload: Sendable {
        public let name: String
        /// As written (nil: Kubernetes' default of one, or an autoscaler's choice).
        public let replicas: Int?
        public let podLabels: [String: String]
        public let environment: [String: String]
        /// Secrets projected into the container's files (`HUDDLE_SECRETS_DIR`).
        public let secretFiles: [String]
        public var module: ServiceModule? { environment["HUDDLE_MODULE"].flatMap(ServiceModule.init(rawValue:)) }
    }

    /// A HorizontalPodAutoscaler: the Deployment whose count it owns, and its bounds.
    public struct Autoscaler: Sendable {
        public let name: String
        public let target: String
        public let minReplicas: Int
        public let maxReplicas: Int
    }

    public struct Service: Sendable {
        public let name: String
        public let selector: [String: String]
        public let ports: [Int]
    }

    /// Who may send to whom: the pods a policy selects, and per direction the peers it allows
    /// (nil in a rule: any peer at all).
    public struct Policy: Sendable {
        public let name: String
        public let selects: LabelSelector
        public let ingressPeers: [LabelSelector?]
        public let egressPeers: [LabelSelector?]
    }

    /// `matchLabels` and `matchExpressions` with `In` or `Exists`, as the policies here use them.
    public struct LabelSelector: Sendable {
        let labels: [String: String]
        let anyOf: [String: Set<String>]
        let exists: Set<String>
        /// A peer outside the namespace (a namespace selector or an address block), matched by no pod here.
        let outside: Bool

        public func matches(_ podLabels: [String: String]) -> Bool {
            !outside && labels.allSatisfy { podLabels[$0.key] == $0.value }
                && anyOf.allSatisfy { podLabels[$0.key].map($0.value.contains) ?? false }
                && exists.allSatisfy { podLabels[$0] != nil }
        }
    }

    public let workloads: [Workload]
    public let autoscalers: [Autoscaler]
    /// The pods each PodMonitor has Prometheus scrape.
    public let scraped: [LabelSelector]
    public let services: [Service]
    public let policies: [Policy]
    /// Secret name → key → decoded value (what the overlay itself carries; production's are made by operators).
    public let secrets: [String: [String: String]]
    public let configMaps: [String: [String: String]]
    /// The Jobs that apply a module's migrations (their container runs `--migrate`).
    public let migrationJobs: [Workload]
    /// CloudNativePG's Cluster, databases, poolers and backups, where the overlay has them.
    public let postgres: PostgresOperatorObjects
    /// The pods that serve PostgreSQL to the modules (labelled huddle.dev/database=postgres): a
    /// StatefulSet's or a Pooler's, by the name of what runs them.
    public let databasePods: [(name: String, labels: [String: String])]

    public init(yaml: String) throws {
        let documents = try Yams.load_all(yaml: yaml).compactMap { $0 as? [String: Any] }
        var configMaps: [String: [String: String]] = [:]
        var secrets: [String: [String: String]] = [:]
        for document in documents {
            let name = (document["metadata"] as? [String: Any])?["name"] as? String ?? ""
            switch document["kind"] as? String {
            case "ConfigMap": configMaps[name] = Self.strings(document["data"])
            case "Secret":
                secrets[name] = Self.strings(document["data"]).mapValues {
                    String(decoding: Data(base64Encoded: $0, options: .ignoreUnknownCharacters) ?? Data(), as: UTF8.self)
                }
                .merging(Self.strings(document["stringData"])) { _, plain in plain }
            default: break
            }
        }
        var workloads: [Workload] = [], services: [Service] = [], policies: [Policy] = [], autoscalers: [Autoscaler] = []
        var scraped: [LabelSelector] = [], databasePods: [(name: String, labels: [String: String])] = []
        var migrationJobs: [Workload] = []
        for document in documents {
            let name = (document["metadata"] as? [String: Any])?["name"] as? String ?? ""
            let spec = document["spec"] as? [String: Any] ?? [:]
            switch document["kind"] as? String {
            case "Deployment": workloads.append(Self.workload(name, spec, configMaps: configMaps))
            case "Job":
                let container = (((spec["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?
                    .first
                let command = ((container?["command"] as? [Any] ?? []) + (container?["args"] as? [Any] ?? [])).map { "\($0)" }
                if command.contains(where: { $0.contains("--migrate") }) {
                    migrationJobs.append(Self.workload(name, spec, configMaps: configMaps))
                }
            case "PodMonitor": scraped.append(Self.selector(spec["selector"]))
            case "StatefulSet":
                let labels = Self.strings(((spec["template"] as? [String: Any])?["metadata"] as? [String: Any])?["labels"])
                if labels[Self.databaseLabel] == "postgres" { databasePods.append((name, labels)) }
            case "HorizontalPodAutoscaler":
                autoscalers.append(
                    Autoscaler(
                        name: name, target: (spec["scaleTargetRef"] as? [String: Any])?["name"] as? String ?? "",
                        minReplicas: spec["minReplicas"] as? Int ?? 1, maxReplicas: spec["maxReplicas"] as? Int ?? 0))
            case "Service":
                let ports = (spec["ports"] as? [[String: Any]] ?? []).compactMap { $0["port"] as? Int }
                services.append(Service(name: name, selector: Self.strings(spec["selector"]), ports: ports))
            case "NetworkPolicy":
                func peers(_ direction: String, _ side: String) -> [LabelSelector?] {
                    (spec[direction] as? [[String: Any]] ?? []).flatMap { rule -> [LabelSelector?] in
                        guard let listed = rule[side] as? [[String: Any]] else { return [nil] }
                        return listed.map(Self.peer)
                    }
                }
                policies.append(
                    Policy(
                        name: name, selects: Self.selector(spec["podSelector"]), ingressPeers: peers("ingress", "from"),
                        egressPeers: peers("egress", "to")))
            default: break
            }
        }
        self.workloads = workloads
        self.autoscalers = autoscalers
        self.scraped = scraped
        self.services = services
        self.policies = policies
        self.secrets = secrets
        self.configMaps = configMaps
        self.migrationJobs = migrationJobs
        self.postgres = PostgresOperatorObjects(documents: documents)
        self.databasePods =
            databasePods + postgres.poolers.filter { $0.podLabels[Self.databaseLabel] == "postgres" }.map { ($0.name, $0.podLabels) }
    }

    /// What the modules' NetworkPolicies let them reach their database by.
    static let databaseLabel = "huddle.dev/database"

    private static func workload(_ name: String, _ spec: [String: Any], configMaps: [String: [String: String]]) -> Workload {
        let template = spec["template"] as? [String: Any] ?? [:]
        let podSpec = template["spec"] as? [String: Any] ?? [:]
        let container = (podSpec["containers"] as? [[String: Any]])?.first ?? [:]
        var environment: [String: String] = [:]
        for source in container["envFrom"] as? [[String: Any]] ?? [] {
            if let map = (source["configMapRef"] as? [String: Any])?["name"] as? String {
                environment.merge(configMaps[map] ?? [:]) { _, new in new }
            }
        }
        for variable in container["env"] as? [[String: Any]] ?? [] {
            if let key = variable["name"] as? String, let value = variable["value"] as? String { environment[key] = value }
        }
        let projected = (podSpec["volumes"] as? [[String: Any]] ?? []).compactMap { $0["projected"] as? [String: Any] }
        let secretFiles = projected.flatMap { $0["sources"] as? [[String: Any]] ?? [] }
            .compactMap { ($0["secret"] as? [String: Any])?["name"] as? String }
        return Workload(
            name: name, replicas: spec["replicas"] as? Int, podLabels: strings((template["metadata"] as? [String: Any])?["labels"]),
            environment: environment,
            secretFiles: secretFiles)
    }

    private static func peer(_ raw: [String: Any]) -> LabelSelector? {
        if raw["ipBlock"] != nil || raw["namespaceSelector"] != nil {
            return LabelSelector(labels: [:], anyOf: [:], exists: [], outside: true)
        }
        return selector(raw["podSelector"])
    }

    private static func selector(_ raw: Any?) -> LabelSelector {
        let raw = raw as? [String: Any] ?? [:]
        var anyOf: [String: Set<String>] = [:], exists: Set<String> = []
        for expression in raw["matchExpressions"] as? [[String: Any]] ?? [] {
            guard let key = expression["key"] as? String else { continue }
            switch expression["operator"] as? String {
            case "In": anyOf[key] = Set((expression["values"] as? [Any] ?? []).map { "\($0)" })
            case "Exists": exists.insert(key)
            default: break
            }
        }
        return LabelSelector(labels: strings(raw["matchLabels"]), anyOf: anyOf, exists: exists, outside: false)
    }

    private static func strings(_ raw: Any?) -> [String: String] {
        (raw as? [String: Any] ?? [:]).mapValues { "\($0)" }
    }
}
