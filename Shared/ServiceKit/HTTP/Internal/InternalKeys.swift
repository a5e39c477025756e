public import Configuration
public import Contracts
public import Crypto
public import Foundation

/// Every module's identity for internal calls: an Ed25519 key pair each. A module holds its own
/// private key (`<module>.internal.key`) and every module's public key (`internal.keys`), so it can
/// sign as itself and check who calls it — and a module whose key leaks can speak only as itself.
///
/// Keys are written as base64 of their 32 raw bytes; `internal.keys` lists `module:publickey` pairs,
/// comma-separated. `huddle internal-keys` makes a set.
public struct InternalKeys: Sendable {
    public private(set) var publicKeys: [ServiceModule: Curve25519.Signing.PublicKey]
    public private(set) var privateKeys: [ServiceModule: Curve25519.Signing.PrivateKey]

    public init(
        publicKeys: [ServiceModule: Curve25519.Signing.PublicKey], privateKeys: [ServiceModule: Curve25519.Signing.PrivateKey] = [:]
    ) {
        self.publicKeys = publicKeys
        self.privateKeys = privateKeys
    }

    /// A fresh key pair for each of `modules`: for `huddle`, whose modules share one process and
    /// nothing outside it needs their keys.
    public static func generate(for modules: [ServiceModule] = ServiceModule.allCases) -> InternalKeys {
        let privateKeys = Dictionary(uniqueKeysWithValues: modules.map { ($0, Curve25519.Signing.PrivateKey()) })
        return InternalKeys(publicKeys: privateKeys.mapValues(\.publicKey), privateKeys: privateKeys)
    }

    /// The keys configured: `internal.keys` and each module's `<module>.internal.key` that is set.
    /// Nil when `internal.keys` is not set at all.
    public static func configured(by reader: ConfigReader) throws -> InternalKeys? {
        guard let list = reader.text("internal.keys"), !list.isEmpty else { return nil }
        var keys = InternalKeys(publicKeys: try parsePublicKeys(list))
        for module in ServiceModule.allCases {
            guard let text = reader.text("\(module.rawValue).internal.key", isSecret: true), !text.isEmpty else { continue }
            let key = try privateKey(text, key: "\(module.rawValue).internal.key")
            guard keys.publicKeys[module]?.rawRepresentation == key.publicKey.rawRepresentation else {
                throw MissingConfiguration(
                    key: "\(module.rawValue).internal.key", hint: "its public key is not the one internal.keys gives for \(module.rawValue)"
                )
            }
            keys.privateKeys[module] = key
        }
        return keys
    }

    /// `module:publickey` pairs, comma-separated.
    static func parsePublicKeys(_ list: String) throws -> [ServiceModule: Curve25519.Signing.PublicKey] {
        var keys: [ServiceModule: Curve25519.Signing.PublicKey] = [:]
        for pair in list.split(separator: ",") {
            let parts = pair.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let module = ServiceModule(rawValue: parts[0]), let raw = Data(base64Encoded: parts[1]),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
            else {
                throw MissingConfiguration(key: "internal.keys", hint: "'\(pair)' is not module:base64-public-key")
            }
            keys[module] = key
        }
        return keys
    }

    static func privateKey(_ text: String, key: String) throws -> Curve25519.Signing.PrivateKey {
        guard let raw = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw MissingConfiguration(key: key, hint: "not a base64 Ed25519 private key (32 bytes); `huddle internal-keys` makes one")
        }
        return privateKey
    }

    /// Whether `privateKey` (as configured) is the private key of the public key `list` (as `internal.keys`) gives `module`.
    public static func pairs(privateKey: String, with list: String, for module: ServiceModule) -> Bool {
        guard let publicKey = (try? parsePublicKeys(list))?[module], let key = try? Self.privateKey(privateKey, key: "") else {
            return false
        }
        return publicKey.rawRepresentation == key.publicKey.rawRepresentation
    }

    /// `internal.keys` for these keys.
    public var publicKeyList: String {
        publicKeys.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            "\($0.key.rawValue):\($0.value.rawRepresentation.base64EncodedString())"
        }
        .joined(separator: ",")
    }

    /// `module`'s private key as configured (`<module>.internal.key`).
    public func privateKeyText(of module: ServiceModule) -> String? { privateKeys[module]?.rawRepresentation.base64EncodedString() }

    /// The credential `module` signs its internal calls with; nil when its private key is not held here.
    public func credential(of module: ServiceModule, now: @escaping @Sendable () -> Date) -> ModuleCredential? {
        privateKeys[module].map { ModuleCredential(module: module, key: $0, now: now) }
    }
}
