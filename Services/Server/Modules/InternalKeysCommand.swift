import ArgumentParser
import Contracts
import Foundation
import ServiceHTTP

/// `huddle internal-keys`: a fresh key pair for every module, as the settings that carry them — one
/// public list every module reads (`INTERNAL_KEYS`) and each module's own private key, which only
/// that module's container or pod may hold (`<MODULE>_INTERNAL_KEY`).
struct InternalKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "internal-keys",
        abstract: "Make a key pair for every module's internal calls.",
        discussion: """
            Prints KEY=VALUE lines for a .env file (docker compose), or with --secrets-dir writes one file a key,
            named as HUDDLE_SECRETS_DIR reads them (internal-keys, auth-internal-key, …), for Kubernetes Secrets.
            """)

    @Option(help: "Write one file a key into this directory instead of printing.")
    var secretsDir: String?

    func run() throws {
        let keys = InternalKeys.generate(for: ServiceModule.allCases.filter(Wiring.makesInternalCalls))
        let settings =
            [("internal.keys", keys.publicKeyList)]
            + ServiceModule.allCases.compactMap { module in keys.privateKeyText(of: module).map { ("\(module.rawValue).internal.key", $0) }
            }
        guard let secretsDir else {
            for (key, value) in settings { print("\(key.uppercased().replacingOccurrences(of: ".", with: "_"))=\(value)") }
            return
        }
        try FileManager.default.createDirectory(atPath: secretsDir, withIntermediateDirectories: true)
        for (key, value) in settings {
            let path = URL(fileURLWithPath: secretsDir).appendingPathComponent(key.replacingOccurrences(of: ".", with: "-")).path
            guard FileManager.default.createFile(atPath: path, contents: Data(value.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("cannot write \(path)")
            }
        }
    }
}
