public import Configuration
public import Contracts
import Foundation
import NIOConcurrencyHelpers

/// Where each module can be reached over internal HTTP.
///
/// Filled from configuration (`<module>.url`, e.g. `AUTH_URL=http://auth:8080`); when modules
/// listen on port 0 (tests), the runner records the port each one actually got. Clients look the
/// address up on every call, so a module never needs to know whether another shares its process.
public final class ServiceDirectory: Sendable {
    private let urls: NIOLockedValueBox<[ServiceModule: String]>

    public init(urls: [ServiceModule: String] = [:]) {
        self.urls = NIOLockedValueBox(urls)
    }

    /// Reads `<module>.url` for every module; modules without one are unknown until announced.
    public convenience init(reader: ConfigReader) {
        var urls: [ServiceModule: String] = [:]
        for module in ServiceModule.allCases {
            if let url = reader.text("\(module.rawValue).url") {
                urls[module] = url.hasSuffix("/") ? String(url.dropLast()) : url
            }
        }
        self.init(urls: urls)
    }

    /// Base URL without a trailing slash, or nil when the module is not known to be running.
    public func url(of module: ServiceModule) -> String? {
        urls.withLockedValue { $0[module] }
    }

    public func set(_ module: ServiceModule, url: String) {
        urls.withLockedValue { $0[module] = url }
    }

    public var known: [ServiceModule: String] { urls.withLockedValue { $0 } }
}
