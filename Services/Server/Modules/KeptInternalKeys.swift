import Contracts
import Crypto
import Foundation
public import ServiceHTTP

/// The all-in-one's internal keys, kept in its data folder (`internal-keys`, readable by its owner
/// alone): made on the first start and read on every later one. Besides the modules' calls to each
/// other they sign what outlives a run — the answer tokens in game pushes already on players' lock
/// screens — which a key made afresh at each start refused after every restart or restore.
/// A deployment configures its keys instead (`internal.keys`, `<module>.internal.key`).
public enum KeptInternalKeys {
    public static let fileName = "internal-keys"

    public static func load(dataDir: String) throws -> InternalKeys {
        let path = URL(fileURLWithPath: dataDir).appendingPathComponent(fileName).path
        var privateKeys: [ServiceModule: Curve25519.Signing.PrivateKey] = [:]
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, let module = ServiceModule(rawValue: parts[0]), let raw = Data(base64Encoded: parts[1]),
                    let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
                else {
                    throw MissingConfiguration(key: path, hint: "a line is not module:base64-private-key; remove the file to make new keys")
                }
                privateKeys[module] = key
            }
        }
        let missing = ServiceModule.allCases.filter { privateKeys[$0] == nil }
        if !missing.isEmpty {
            for module in missing { privateKeys[module] = Curve25519.Signing.PrivateKey() }
            let text = privateKeys.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue):\($0.value.rawRepresentation.base64EncodedString())" }.joined(separator: "\n")
            try? FileManager.default.removeItem(atPath: path)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw MissingConfiguration(key: path, hint: "the data folder is not writable")
            }
        }
        return InternalKeys(publicKeys: privateKeys.mapValues(\.publicKey), privateKeys: privateKeys)
    }
}
