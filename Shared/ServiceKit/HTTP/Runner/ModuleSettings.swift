public import Configuration
public import Contracts
import Foundation
public import Hummingbird

/// Reading the keys every module shares. Keys are dotted and lowercase; the environment variable of
/// a key is its upper-cased form with underscores (`auth.http.port` → `AUTH_HTTP_PORT`).
extension ConfigReader {
    /// Where a module listens. Keys: `<module>.http.host` (default 127.0.0.1), `<module>.http.port`
    /// (default the module's embedded-stack port; 0 picks a free one).
    public func listenAddress(for module: String, defaultPort: Int) -> (host: String, port: Int) {
        (
            string(forKey: ConfigKey("\(module).http.host"), default: "127.0.0.1"),
            int(forKey: ConfigKey("\(module).http.port"), default: defaultPort)
        )
    }

    /// How a module's server listens: where, and `<module>.http.backlog` connections waiting to be
    /// accepted (default `defaultBacklog`).
    public func serverConfiguration(for module: String, defaultPort: Int) -> ApplicationConfiguration {
        let (host, port) = listenAddress(for: module, defaultPort: defaultPort)
        return ApplicationConfiguration(
            address: .hostname(host, port: port), serverName: "huddle-\(module)",
            backlog: int(forKey: ConfigKey("\(module).http.backlog"), default: Self.defaultBacklog))
    }

    /// Connections a listener lets wait to be accepted; the kernel holds it to `net.core.somaxconn`
    /// (4,096 since Linux 5.4), as Go's listeners ask for. When a pod restarts, its thousands of
    /// devices reconnect at once: behind Hummingbird's 256, 5,000 connections opened together to one
    /// module lost 44–800 of their handshakes to a full queue (`ListenOverflows`, three runs each of
    /// two; none at 4,096), each waiting a second or more for TCP to try again.
    public static let defaultBacklog = 4096

    /// The most live sockets one instance of `module` holds (`<module>.sockets.max`, default 12,000;
    /// 0 takes as many as come); past it new upgrades are answered 503 with `Retry-After`. Sized to the
    /// overlays' 512 MiB for a live module (base/live-socket-pods.yaml): a device costs chat 29.8 KB
    /// and games 34.3 KB on a live match (`huddle-bench chat`, `live-match`), so 12,000 devices are at
    /// most 412 MB beside the 60–95 MB a module holds with none. The autoscaler adds pods at 8,000.
    public func socketCap(for module: ServiceModule) -> Int? {
        let cap = int(forKey: ConfigKey("\(module.rawValue).sockets.max"), default: 12_000)
        return cap > 0 ? cap : nil
    }

    public func serverConfiguration(for module: ServiceModule) -> ApplicationConfiguration {
        serverConfiguration(for: module.rawValue, defaultPort: module.defaultPort)
    }

    /// Store of a module. Key: `<module>.db.url` — `postgres://…`, `sqlite:PATH`, or `sqlite::memory:`.
    /// Default: `sqlite:data/<module>.sqlite`. A PostgreSQL URL may leave its password to
    /// `<module>.db.password`, so the password lives in one Secret that the database's operator reads
    /// to set the role's password and the module's pods mount (deploy/kubernetes/components/cloudnative-pg).
    public func databaseURL(for module: ServiceModule) -> String {
        let url = string(forKey: ConfigKey("\(module.rawValue).db.url"), default: "sqlite:data/\(module.rawValue).sqlite")
        return Self.databaseURL(url, password: string(forKey: ConfigKey("\(module.rawValue).db.password"), isSecret: true))
    }

    /// `url` with `password` in its user information; a URL that is not PostgreSQL's, or already names
    /// a password, is left as it is.
    static func databaseURL(_ url: String, password: String?) -> String {
        guard let password, !password.isEmpty, url.hasPrefix("postgres"), var parts = URLComponents(string: url),
            parts.user != nil, parts.password == nil
        else { return url }
        // Only unreserved characters stay as they are: Foundation would leave a ':' in the password,
        // which a reader splitting the user information at its last ':' would misread.
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        parts.percentEncodedPassword = password.addingPercentEncoding(withAllowedCharacters: unreserved)
        return parts.string ?? url
    }

    /// Whether a module applies its migrations as it starts (`<module>.db.migrate`: `start`, the default)
    /// or waits until something else has (`wait`: the production overlay's `migrate-<module>` Job, run
    /// once a rollout), not ready meanwhile.
    public func migratesAtStart(_ module: ServiceModule) throws -> Bool {
        switch text("\(module.rawValue).db.migrate", default: "start") {
        case "start": return true
        case "wait": return false
        case let other: throw MissingConfiguration(key: "\(module.rawValue).db.migrate", hint: "start or wait, not '\(other)'")
        }
    }

    /// A duration configured in milliseconds; by convention such keys end in `.ms`.
    public func milliseconds(_ key: String, default defaultValue: Int) -> Duration {
        .milliseconds(int(forKey: ConfigKey(key), default: defaultValue))
    }

    public func integer(_ key: String, default defaultValue: Int) -> Int {
        int(forKey: ConfigKey(key), default: defaultValue)
    }

    public func text(_ key: String, default defaultValue: String) -> String {
        string(forKey: ConfigKey(key), default: defaultValue)
    }

    public func text(_ key: String, isSecret: Bool = false) -> String? {
        string(forKey: ConfigKey(key), isSecret: isSecret)
    }

    /// A comma-separated list (`a@x.com,b@y.com`); empty when the key is absent.
    public func list(_ key: String) -> [String] {
        (string(forKey: ConfigKey(key)) ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension EnvironmentVariablesProvider {
    /// Settings given as dotted keys (`auth.http.port=0`), read exactly as if they were the
    /// environment variables of those keys (`AUTH_HTTP_PORT=0`): strings parsed per requested type.
    public static func settings(_ values: [String: String]) -> EnvironmentVariablesProvider {
        var variables: [String: String] = [:]
        for (key, value) in values { variables[variableName(of: key)] = value }
        return EnvironmentVariablesProvider(environmentVariables: variables)
    }

    /// `AUTH_HTTP_PORT` for `auth.http.port`.
    public static func variableName(of key: String) -> String {
        String(key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
