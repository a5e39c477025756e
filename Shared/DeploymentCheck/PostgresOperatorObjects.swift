import Foundation

/// CloudNativePG's objects in a rendered overlay (postgresql.cnpg.io and barmancloud.cnpg.io), as the
/// wiring check reads them.
public struct PostgresOperatorObjects: Sendable {
    public struct Cluster: Sendable {
        public let name: String
        public let instances: Int
        /// Role → the Secret the operator sets its password from.
        public let rolePasswords: [String: String]
        /// The ObjectStore its WAL archiver plugin writes to (nil: no WAL is archived).
        public let walArchive: String?
        public let walArchiver: String?
    }

    public struct Database: Sendable {
        public let name: String, database: String, owner: String, cluster: String
    }

    public struct Pooler: Sendable {
        public let name: String, cluster: String, poolMode: String
        public let podLabels: [String: String]
    }

    public struct ScheduledBackup: Sendable {
        public let name: String, cluster: String
        public let plugin: String?
    }

    public let clusters: [Cluster]
    public let databases: [Database]
    public let poolers: [Pooler]
    public let scheduledBackups: [ScheduledBackup]
    public let objectStores: [String]

    init(documents: [[String: Any]]) {
        var clusters: [Cluster] = [], databases: [Database] = [], poolers: [Pooler] = []
        var backups: [ScheduledBackup] = [], stores: [String] = []
        for document in documents where (document["apiVersion"] as? String)?.contains(".cnpg.io/") == true {
            let name = (document["metadata"] as? [String: Any])?["name"] as? String ?? ""
            let spec = document["spec"] as? [String: Any] ?? [:]
            let cluster = (spec["cluster"] as? [String: Any])?["name"] as? String ?? ""
            switch document["kind"] as? String {
            case "Cluster":
                let roles = ((spec["managed"] as? [String: Any])?["roles"] as? [[String: Any]]) ?? []
                var passwords: [String: String] = [:]
                for role in roles {
                    guard let roleName = role["name"] as? String else { continue }
                    passwords[roleName] = (role["passwordSecret"] as? [String: Any])?["name"] as? String ?? ""
                }
                let archiver = (spec["plugins"] as? [[String: Any]] ?? []).first { $0["isWALArchiver"] as? Bool == true }
                clusters.append(
                    Cluster(
                        name: name, instances: spec["instances"] as? Int ?? 1, rolePasswords: passwords,
                        walArchive: (archiver?["parameters"] as? [String: Any])?["barmanObjectName"] as? String,
                        walArchiver: archiver?["name"] as? String))
            case "Database":
                databases.append(
                    Database(
                        name: name, database: spec["name"] as? String ?? "", owner: spec["owner"] as? String ?? "", cluster: cluster))
            case "Pooler":
                let template = spec["template"] as? [String: Any] ?? [:]
                let labels = ((template["metadata"] as? [String: Any])?["labels"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
                poolers.append(
                    Pooler(
                        name: name, cluster: cluster,
                        poolMode: (spec["pgbouncer"] as? [String: Any])?["poolMode"] as? String ?? "session", podLabels: labels))
            case "ScheduledBackup":
                let plugin =
                    spec["method"] as? String == "plugin" ? (spec["pluginConfiguration"] as? [String: Any])?["name"] as? String : nil
                backups.append(ScheduledBackup(name: name, cluster: cluster, plugin: plugin))
            case "ObjectStore": stores.append(name)
            default: break
            }
        }
        self.clusters = clusters
        self.databases = databases
        self.poolers = poolers
        self.scheduledBackups = backups
        self.objectStores = stores
    }
}
