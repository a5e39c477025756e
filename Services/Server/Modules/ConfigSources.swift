public import Configuration
import Foundation
import ServiceKit

extension ConfigReader {
    /// Command line (as given key/values) > environment > defaults: the order every executable uses.
    public static func huddle(overrides: [String: String] = [:], defaults: [String: String] = [:]) -> ConfigReader {
        ConfigReader(providers: [
            EnvironmentVariablesProvider.settings(overrides), EnvironmentVariablesProvider(),
            EnvironmentVariablesProvider.settings(defaults),
        ])
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
