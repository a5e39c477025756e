import Configuration
import Contracts
import Foundation
import ModuleLauncher
public import ServiceHTTP

/// The all-in-one's internal keys, kept in its data folder (`internal-keys`, readable by its owner
/// alone): made on the first start and read on every later one. Besides the modules' calls to each
/// other they sign what outlives a run — the answer tokens in game pushes already on players' lock
/// screens — which a key made afresh at each start refused after every restart or restore.
/// A deployment configures its keys instead; the file holds the same keys (`internal.keys`,
/// `<module>.internal.key`, a `key=value` line each) and is read as that configuration is.
public enum KeptInternalKeys {
    public static let fileName = "internal-keys"

    public static func load(dataDir: String) throws -> InternalKeys {
        let path = URL(fileURLWithPath: dataDir).appendingPathComponent(fileName).path
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            do {
                // The lines are settings as `--set` takes them.
                let settings = try parseSettings(text.split(separator: "\n").map(String.init))
                let kept = try InternalKeys.configured(by: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)))
                if let kept, ServiceModule.allCases.allSatisfy({ kept.privateKeys[$0] != nil }) { return kept }
            } catch {
                throw MissingConfiguration(key: path, hint: "\(error); remove the file to make new keys")
            }
        }
        // None kept yet, or made before a module was added: a new set for every module.
        let keys = InternalKeys.generate()
        let lines =
            ["internal.keys=\(keys.publicKeyList)"]
            + ServiceModule.allCases.compactMap { module in keys.privateKeyText(of: module).map { "\(module.rawValue).internal.key=\($0)" }
            }
        try? FileManager.default.removeItem(atPath: path)
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(lines.joined(separator: "\n").utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw MissingConfiguration(key: path, hint: "the data folder is not writable")
        }
        return keys
    }
}
