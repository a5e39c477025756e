public import Contracts
import Foundation

extension ServiceModule {
    /// The loopback port a module listens on in the embedded stack (`swift run huddle`).
    public var defaultPort: Int {
        switch self {
        case .gateway: 8080
        case .auth: 8081
        case .catalog: 8082
        case .games: 8083
        case .search: 8084
        case .betting: 8085
        case .chat: 8086
        case .notify: 8087
        case .purchases: 8088
        case .moderation: 8089
        case .media: 8092
        }
    }

    /// Parses `all` or a comma-separated list such as `gateway,auth`.
    public static func parseList(_ text: String) throws -> [ServiceModule] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names == ["all"] { return allCases }
        return try names.map { name in
            guard let module = ServiceModule(rawValue: name) else {
                throw ModuleListError(name: name)
            }
            return module
        }
    }
}

public struct ModuleListError: Error, CustomStringConvertible {
    public let name: String
    public var description: String {
        "unknown module '\(name)'; expected 'all' or a comma-separated list of: "
            + ServiceModule.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
