import Contracts
import DeploymentCheck
import Foundation
import HuddleModules
import ServiceHTTP
import Testing

/// kubectl, which renders the overlays with its Kustomize, where this machine has it.
let kubectlPath = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The Kubernetes overlays, as `kubectl kustomize` renders them, are checked against `Wiring` too.
@Suite("Kubernetes manifests follow the wiring", .enabled(if: kubectlPath != nil, "needs kubectl (with Kustomize)"))
struct KubernetesTests {

    static func rendered(_ overlay: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(kubectlPath))
        process.arguments = ["kustomize", WiringTests.root.appendingPathComponent("deploy/kubernetes/overlays/\(overlay)").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "kubectl kustomize \(overlay) failed")
        return String(decoding: data, as: UTF8.self)
    }

    static func findings(_ yaml: String) throws -> [String] {
        KubernetesCheck.findings(try KubernetesManifests(yaml: yaml), modules: HuddleModules.available)
    }

    @Test("both overlays agree with the wiring", arguments: ["development", "production"])
    func overlaysAgree(overlay: String) throws {
        let findings = try Self.findings(Self.rendered(overlay))
        #expect(findings == [], "\(findings)")
    }

    @Test("production runs every module in two or more replicas, counted by an autoscaler alone, each with a disruption budget")
    func productionReplicas() throws {
        let yaml = try Self.rendered("production")
        let manifests = try KubernetesManifests(yaml: yaml)
        for module in HuddleModules.available {
            let workload = try #require(manifests.workloads.first { $0.module == module }, "\(module.rawValue)")
            let autoscaler = manifests.autoscalers.first { $0.target == workload.name }
            #expect(workload.replicas == nil && autoscaler?.minReplicas ?? 0 >= 2, "\(module.rawValue)")
        }
        // One a module, and the trace collector's (components/tracing).
        #expect(yaml.components(separatedBy: "kind: PodDisruptionBudget").count - 1 == HuddleModules.available.count + 1)
        #expect(yaml.contains("OTEL_EXPORTER_OTLP_ENDPOINT"))
        #expect(!yaml.contains("stand-in"))
    }

    @Test("a removed subscriber, a wrong address and a missing or too open NetworkPolicy are each caught")
    func breaksAreCaught() throws {
        let yaml = try Self.rendered("development")
        let withoutSubscriber = yaml.replacingOccurrences(
            of: "CATALOG_EVENTS_SUBSCRIBERS: games,search,chat,notify", with: "CATALOG_EVENTS_SUBSCRIBERS: games,chat,notify")
        #expect(withoutSubscriber != yaml)
        #expect(
            try Self.findings(withoutSubscriber) == [
                "catalog: CATALOG_EVENTS_SUBSCRIBERS is 'games,chat,notify' but should be chat,games,notify,search: they consume its events"
            ])

        let wrongAddress = yaml.replacingOccurrences(of: "AUTH_URL: http://auth:8080", with: "AUTH_URL: http://auth:9000")
        #expect(try Self.findings(wrongAddress).contains { $0.hasPrefix("catalog: AUTH_URL is 'http://auth:9000'") })

        let documents = yaml.components(separatedBy: "\n---\n")
        let withoutSearchPolicy = documents.filter { !($0.contains("kind: NetworkPolicy") && $0.contains("\n  name: search\n")) }
        #expect(withoutSearchPolicy.count == documents.count - 1)
        let missing = try Self.findings(withoutSearchPolicy.joined(separator: "\n---\n"))
        #expect(
            missing.contains("search: NetworkPolicies let in none but Wiring declares auth,catalog,games,gateway,moderation,purchases"),
            "\(missing)")
        #expect(missing.contains { $0.hasPrefix("search: no NetworkPolicy lets it reach its database") })

        let open = documents.map { document in
            guard document.contains("kind: NetworkPolicy"), document.contains("\n  name: search\n") else { return document }
            return document.replacingOccurrences(of: "  ingress:\n", with: "  ingress:\n  - ports:\n    - port: http\n")
        }.joined(separator: "\n---\n")
        #expect(open != yaml)
        #expect(try Self.findings(open).contains { $0.hasSuffix("a NetworkPolicy lets anyone in; only its callers may call it") })
    }

    @Test("a pod that holds another module's key, or a key that is not its module's pair, is caught")
    func keysAreCaught() throws {
        let yaml = try Self.rendered("development")
        // Betting's pods project catalog's Secret, and with it catalog's private key.
        let documents = yaml.components(separatedBy: "\n---\n")
        let sharing = documents.map { document in
            guard document.contains("kind: Deployment"), document.contains("\n  name: betting\n") else { return document }
            return document.replacingOccurrences(
                of: "          - secret:\n              name: huddle-betting\n",
                with: "          - secret:\n              name: huddle-betting\n          - secret:\n              name: huddle-catalog\n")
        }.joined(separator: "\n---\n")
        #expect(sharing != yaml)
        #expect(try Self.findings(sharing) == ["betting: projects huddle-catalog, catalog's Secret, and could speak as catalog"])

        // Games' private key swapped for chat's: it would sign tokens the public list does not verify as games'.
        let gamesKey = try #require(yaml.firstMatch(of: #/  games-internal-key: (\S+)/#)?.output.1)
        let chatKey = try #require(yaml.firstMatch(of: #/  chat-internal-key: (\S+)/#)?.output.1)
        let swapped = yaml.replacingOccurrences(of: "games-internal-key: \(gamesKey)", with: "games-internal-key: \(chatKey)")
        #expect(
            try Self.findings(swapped) == [
                "huddle-games: games-internal-key is not the private key of the public key internal-keys gives for games"
            ])
    }

    @Test("production's Prometheus scrapes every module; a module its PodMonitors leave out is caught")
    func everyModuleScraped() throws {
        let yaml = try Self.rendered("production")
        // The modules', the gateway's and PostgreSQL's instances'.
        #expect(try KubernetesManifests(yaml: yaml).scraped.count == 3)
        let unscraped = yaml.replacingOccurrences(of: "      - purchases\n      - search\n", with: "      - purchases\n")
        #expect(unscraped != yaml)
        #expect(try Self.findings(unscraped) == ["search: no PodMonitor scrapes its pods"])
    }

    @Test("a count pinned beside an autoscaler, or an autoscaler of nothing, is caught")
    func pinnedReplicasAreCaught() throws {
        let yaml = try Self.rendered("production")
        let documents = yaml.components(separatedBy: "\n---\n")
        let pinned = documents.map { document in
            guard document.contains("kind: Deployment"), document.contains("\n  name: chat\n") else { return document }
            return document.replacingOccurrences(of: "\nspec:\n", with: "\nspec:\n  replicas: 2\n")
        }.joined(separator: "\n---\n")
        #expect(pinned != yaml)
        #expect(try Self.findings(pinned) == ["chat: replicas is pinned at 2 beside the autoscaler chat, which owns the count"])
        let orphan = yaml.replacingOccurrences(
            of: "    kind: Deployment\n    name: search\n", with: "    kind: Deployment\n    name: serch\n")
        #expect(orphan != yaml)
        #expect(try Self.findings(orphan) == ["the autoscaler search scales serch, which no Deployment is"])
    }

    /// `yaml` with `old` replaced by `new` in the one document of `kind` named `name`.
    static func changing(_ yaml: String, kind: String, name: String, _ old: String, _ new: String) -> String {
        yaml.components(separatedBy: "\n---\n").map { document in
            guard document.contains("kind: \(kind)\n"), document.contains("\n  name: \(name)\n") else { return document }
            return document.replacingOccurrences(of: old, with: new)
        }.joined(separator: "\n---\n")
    }

    @Test(
        "production's PostgreSQL: a Cluster of one, WAL archived nowhere, a backup of no cluster, a transaction pooler, a module without its database, password or way in are each caught"
    )
    func databaseMistakesAreCaught() throws {
        let yaml = try Self.rendered("production")
        let cases: [(String, String)] = [
            (
                Self.changing(yaml, kind: "Cluster", name: "huddle-pg", "  instances: 3\n", "  instances: 1\n"),
                "the Cluster huddle-pg runs 1 instance(s): it cannot lose a node and keep a standby in step"
            ),
            (
                Self.changing(
                    yaml, kind: "Cluster", name: "huddle-pg", "barmanObjectName: huddle-backups", "barmanObjectName: huddle-backup"),
                "the Cluster huddle-pg archives its WAL to the ObjectStore huddle-backup, which is not here"
            ),
            (
                Self.changing(yaml, kind: "ScheduledBackup", name: "huddle-pg-nightly", "    name: huddle-pg\n", "    name: huddle-pq\n"),
                "the ScheduledBackup huddle-pg-nightly backs up huddle-pq, which no Cluster is"
            ),
            (
                Self.changing(yaml, kind: "Pooler", name: "huddle-pg-pooler-rw", "poolMode: session", "poolMode: transaction"),
                "the Pooler huddle-pg-pooler-rw pools by transaction: the modules LISTEN for events, which needs a session"
            ),
            (
                Self.changing(yaml, kind: "Database", name: "huddle-pg-moderation", "  owner: huddle_moderation", "  owner: huddle_media"),
                "no Database of the Cluster huddle-pg is huddle_moderation owned by huddle_moderation, which moderation uses"
            ),
            (
                Self.changing(
                    yaml, kind: "Deployment", name: "chat", "              name: huddle-pg-chat\n", "              name: huddle-pg-games\n"),
                "chat: its pods do not project huddle-pg-chat, the password of huddle_chat"
            ),
            (
                Self.changing(yaml, kind: "NetworkPolicy", name: "huddle-pg-pooler", "          - moderation\n", ""),
                "huddle-pg-pooler-rw: no NetworkPolicy lets moderation in, whose store is there"
            ),
        ]
        for (planted, expected) in cases {
            #expect(planted != yaml, "\(expected)")
            let findings = try Self.findings(planted)
            #expect(findings.contains(expected), "\(findings)")
        }
        // Chat holding games' password is also said as such.
        let sharing = cases[5].0
        #expect(try Self.findings(sharing).contains("chat: projects huddle-pg-games, the password of huddle_games"))
    }

    @Test("the development overlay's PostgreSQL lets in every module with a store; one left out is caught")
    func developmentDatabaseLetsEveryStoreIn() throws {
        let yaml = try Self.rendered("development")
        let planted = Self.changing(yaml, kind: "NetworkPolicy", name: "postgres", "          - moderation\n", "")
        #expect(planted != yaml)
        #expect(try Self.findings(planted) == ["postgres: no NetworkPolicy lets moderation in, whose store is there"])
    }

    @Test("production ships every dashboard compose shows, as a ConfigMap Grafana's sidecar loads")
    func dashboardsShipped() throws {
        let manifests = try KubernetesManifests(yaml: try Self.rendered("production"))
        let shipped = try #require(manifests.configMaps["huddle-dashboards"])
        let files = try FileManager.default.contentsOfDirectory(at: DashboardTests.dashboards, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(Set(shipped.keys) == Set(files.map(\.lastPathComponent)))
        for file in files { #expect(shipped[file.lastPathComponent] == (try String(contentsOf: file, encoding: .utf8))) }
        #expect(try Self.rendered("production").contains("grafana_dashboard: \"1\""))
    }

    @Test("production migrates once a rollout: each module's pods wait, its Job migrates; a missing Job or its password is caught")
    func migrationJobs() throws {
        let yaml = try Self.rendered("production")
        let manifests = try KubernetesManifests(yaml: yaml)
        #expect(Set(manifests.migrationJobs.compactMap(\.module)) == Set(Wiring.stores))
        let documents = yaml.components(separatedBy: "\n---\n")
        let withoutJob = documents.filter { !($0.contains("kind: Job\n") && $0.contains("\n  name: migrate-search\n")) }
        #expect(withoutJob.count == documents.count - 1)
        #expect(
            try Self.findings(withoutJob.joined(separator: "\n---\n")) == [
                "search: waits for its migrations (SEARCH_DB_MIGRATE=wait), but no Job runs `search --migrate`"
            ])
        let withoutPassword = Self.changing(
            yaml, kind: "Job", name: "migrate-chat", "              name: huddle-pg-chat\n", "              name: huddle-pg-chats\n")
        #expect(withoutPassword != yaml)
        #expect(try Self.findings(withoutPassword) == ["migrate-chat: does not project huddle-pg-chat, which chat reaches its store with"])
    }
}
