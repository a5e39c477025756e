public import Configuration
import Foundation
import ServiceHTTP
import SystemPackage

extension ConfigReader {
    /// Command line (as given key/values) > environment > secret files > defaults: the order every
    /// executable uses. Secret files are read from `secretsDirectory` (by default the environment's
    /// `HUDDLE_SECRETS_DIR`; none when unset), one file a key named as the key with dashes (`auth-db-url` for
    /// `auth.db.url`, `auth-internal-key`): Kubernetes Secrets mounted as files, so no secret needs to be
    /// in the environment, where every process of the container and its crash dumps could read it.
    public static func huddle(
        overrides: [String: String] = [:], defaults: [String: String] = [:],
        secretsDirectory: String? = nil
    ) async throws -> ConfigReader {
        var providers: [any ConfigProvider] = [EnvironmentVariablesProvider.settings(overrides), EnvironmentVariablesProvider()]
        if let secretsDirectory = secretsDirectory ?? ProcessInfo.processInfo.environment["HUDDLE_SECRETS_DIR"], !secretsDirectory.isEmpty {
            providers.append(try await DirectoryFilesProvider(directoryPath: FilePath(secretsDirectory)))
        }
        providers.append(EnvironmentVariablesProvider.settings(defaults))
        return ConfigReader(providers: providers)
    }
}

/// Parses repeated `--set key=value` options.
public func parseSettings(_ pairs: [String]) throws -> [String: String] {
    var settings: [String: String] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw SettingFormatError(text: pair)
        }
        settings[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    return settings
}

public struct SettingFormatError: Error, CustomStringConvertible {
    let text: String
    public var description: String { "expected key=value, got '\(text)'" }
}
