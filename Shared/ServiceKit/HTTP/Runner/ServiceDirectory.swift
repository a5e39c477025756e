public import Configuration
public import Contracts
import Foundation
import NIOConcurrencyHelpers

/// Where each module can be reached over internal HTTP: one or more instances, each a base URL.
///
/// Filled from configuration (`<module>.url`, e.g. `AUTH_URL=http://auth:8080`, or a comma-separated
/// list of instances, `http://10.0.0.5:8080,http://10.0.0.6:8080`); when modules listen on port 0
/// (tests), the runner records the port each one actually got; the gateway replaces a module's
/// instances with what its name resolves to (`InstanceResolver`). Clients look the address up on
/// every call, so a module never needs to know whether another shares its process or how many
/// replicas it runs.
public final class ServiceDirectory: Sendable {
    private let instances: NIOLockedValueBox<[ServiceModule: [String]]>

    /// `urls`: each module's base URL, or a comma-separated list of them.
    public init(urls: [ServiceModule: String] = [:]) {
        instances = NIOLockedValueBox(urls.mapValues(Self.parse).filter { !$0.value.isEmpty })
    }

    /// Reads `<module>.url` for every module; modules without one are unknown until announced.
    public convenience init(reader: ConfigReader) {
        var urls: [ServiceModule: String] = [:]
        for module in ServiceModule.allCases {
            if let url = reader.text("\(module.rawValue).url") { urls[module] = url }
        }
        self.init(urls: urls)
    }

    /// One instance's base URL without a trailing slash, chosen at random so that calls spread over
    /// replicas; nil when the module is not known to be running.
    public func url(of module: ServiceModule) -> String? {
        instances.withLockedValue { $0[module]?.randomElement() }
    }

    /// Every known instance of `module`.
    public func instances(of module: ServiceModule) -> [String] {
        instances.withLockedValue { $0[module] ?? [] }
    }

    public func set(_ module: ServiceModule, url: String) { set(module, instances: [url]) }

    public func set(_ module: ServiceModule, instances urls: [String]) {
        // Two names of one address (a resolved host and its literal) are one instance.
        var seen: Set<String> = []
        let cleaned = urls.flatMap(Self.parse).filter { seen.insert($0).inserted }
        instances.withLockedValue { $0[module] = cleaned.isEmpty ? nil : cleaned }
    }

    /// The modules with at least one instance.
    public var modules: [ServiceModule] { instances.withLockedValue { Array($0.keys) } }

    private static func parse(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }
}
