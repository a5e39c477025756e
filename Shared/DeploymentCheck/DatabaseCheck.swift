import Contracts
import Foundation
import ServiceHTTP

/// The PostgreSQL around the modules, held to the wiring: the database's pods let in every module
/// with a store; and, where CloudNativePG runs it, a Cluster that can lose a node (three instances),
/// archives its WAL to an object store that is there and is backed up on a schedule, a session pooler
/// (the modules LISTEN), and for each module a database and role of its own, whose password Secret
/// its pods, and no other module's, project.
extension KubernetesCheck {
    static func database(_ manifests: KubernetesManifests, deployed: [ServiceModule: KubernetesManifests.Workload]) -> [String] {
        var findings = databaseIngress(manifests, deployed: deployed)
        let objects = manifests.postgres
        for cluster in objects.clusters { findings += self.cluster(cluster, objects) }
        for backup in objects.scheduledBackups {
            guard let cluster = objects.clusters.first(where: { $0.name == backup.cluster }) else {
                findings.append("the ScheduledBackup \(backup.name) backs up \(backup.cluster), which no Cluster is")
                continue
            }
            if let archiver = cluster.walArchiver, backup.plugin != archiver {
                findings.append(
                    "the ScheduledBackup \(backup.name) does not back up through \(archiver), where \(cluster.name)'s WAL goes: its backups could not be replayed to a point in time"
                )
            }
        }
        for pooler in objects.poolers {
            if !objects.clusters.contains(where: { $0.name == pooler.cluster }) {
                findings.append("the Pooler \(pooler.name) pools for \(pooler.cluster), which no Cluster is")
            }
            if pooler.poolMode != "session" {
                findings.append(
                    "the Pooler \(pooler.name) pools by \(pooler.poolMode): the modules LISTEN for events, which needs a session")
            }
        }
        for (module, workload) in deployed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where Wiring.stores.contains(module) {
            findings += operatorStore(of: module, workload, objects)
            findings += migrations(of: module, workload, manifests.migrationJobs)
        }
        return findings
    }

    /// A module whose pods wait for their schema (`<MODULE>_DB_MIGRATE=wait`) has a Job that applies
    /// it, with the module's own configuration and database secrets.
    private static func migrations(
        of module: ServiceModule, _ workload: KubernetesManifests.Workload, _ jobs: [KubernetesManifests.Workload]
    ) -> [String] {
        let variable = variable(module, "DB_MIGRATE"), url = Self.variable(module, "DB_URL")
        guard workload.environment[variable] == "wait" else { return [] }
        guard let job = jobs.first(where: { $0.module == module }) else {
            return ["\(workload.name): waits for its migrations (\(variable)=wait), but no Job runs `\(module.rawValue) --migrate`"]
        }
        var findings: [String] = []
        let needed = Set(workload.secretFiles.filter { $0 == "huddle-\(module.rawValue)" || $0.hasPrefix("huddle-pg-") })
        let missing = needed.subtracting(job.secretFiles)
        if !missing.isEmpty {
            findings.append(
                "\(job.name): does not project \(missing.sorted().joined(separator: ", ")), which \(workload.name) reaches its store with")
        }
        if job.environment[url] != workload.environment[url] {
            findings.append("\(job.name): migrates another database than \(workload.name) uses")
        }
        return findings
    }

    private static func databaseIngress(_ manifests: KubernetesManifests, deployed: [ServiceModule: KubernetesManifests.Workload])
        -> [String]
    {
        var findings: [String] = []
        for pods in manifests.databasePods {
            let ingress = manifests.policies.filter { $0.selects.matches(pods.labels) }.flatMap(\.ingressPeers)
            for (module, workload) in deployed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where Wiring.stores.contains(module) {
                if !ingress.contains(where: { $0?.matches(workload.podLabels) ?? true }) {
                    findings.append("\(pods.name): no NetworkPolicy lets \(module.rawValue) in, whose store is there")
                }
            }
        }
        return findings
    }

    private static func cluster(_ cluster: PostgresOperatorObjects.Cluster, _ objects: PostgresOperatorObjects) -> [String] {
        var findings: [String] = []
        if cluster.instances < 3 {
            findings.append(
                "the Cluster \(cluster.name) runs \(cluster.instances) instance(s): it cannot lose a node and keep a standby in step")
        }
        if let store = cluster.walArchive {
            if !objects.objectStores.contains(store) {
                findings.append("the Cluster \(cluster.name) archives its WAL to the ObjectStore \(store), which is not here")
            }
        } else {
            findings.append("the Cluster \(cluster.name) archives no WAL: nothing could be restored to a point in time")
        }
        if !objects.scheduledBackups.contains(where: { $0.cluster == cluster.name }) {
            findings.append("no ScheduledBackup backs up the Cluster \(cluster.name)")
        }
        return findings
    }

    /// A module whose `<MODULE>_DB_URL` names a Pooler (or a Cluster's `-rw` Service).
    private static func operatorStore(
        of module: ServiceModule, _ workload: KubernetesManifests.Workload, _ objects: PostgresOperatorObjects
    ) -> [String] {
        let variable = variable(module, "DB_URL")
        guard let url = workload.environment[variable].flatMap(URLComponents.init(string:)), let host = url.host else { return [] }
        let clusterName = objects.poolers.first { $0.name == host }?.cluster ?? (host.hasSuffix("-rw") ? String(host.dropLast(3)) : "")
        guard let cluster = objects.clusters.first(where: { $0.name == clusterName }) else { return [] }
        let owner = "huddle_\(module.rawValue)"
        var findings: [String] = []
        if url.user != owner || url.path != "/\(owner)" {
            findings.append("\(workload.name): \(variable) must use role and database \(owner)")
        }
        if !objects.databases.contains(where: { $0.cluster == cluster.name && $0.database == owner && $0.owner == owner }) {
            findings.append("no Database of the Cluster \(cluster.name) is \(owner) owned by \(owner), which \(module.rawValue) uses")
        }
        if let secret = cluster.rolePasswords[owner] {
            if url.password == nil, !workload.secretFiles.contains(secret) {
                findings.append("\(workload.name): its pods do not project \(secret), the password of \(owner)")
            }
        } else {
            findings.append("the Cluster \(cluster.name) does not manage the role \(owner), which \(module.rawValue) signs in as")
        }
        for (role, secret) in cluster.rolePasswords.sorted(by: { $0.key < $1.key })
        where role != owner && workload.secretFiles.contains(secret) {
            findings.append("\(workload.name): projects \(secret), the password of \(role)")
        }
        if url.queryItems?.contains(where: { $0.name == "sslrootcert" }) == true, !workload.secretFiles.contains("\(cluster.name)-ca") {
            findings.append("\(workload.name): verifies PostgreSQL against \(cluster.name)-ca, which its pods do not project")
        }
        return findings
    }
}
