public import Contracts
import Foundation
import Yams

/// docker-compose.yml as the wiring check and the topology runner read it: each service's image and
/// environment, YAML merge keys (`<<: *module-env`) applied, `${…}` references left as written.
public struct ComposeFile: Sendable {
    public struct Service: Sendable {
        public let name: String
        public let image: String?
        public let environment: [String: String]

        /// The module it runs (`HUDDLE_MODULE`), if any.
        public var module: ServiceModule? { environment["HUDDLE_MODULE"].flatMap(ServiceModule.init(rawValue:)) }
    }

    /// By service name (the compose hostname).
    public let services: [String: Service]

    public init(yaml: String) throws {
        let file = try YAMLDecoder().decode(RawFile.self, from: yaml)
        services = Dictionary(
            uniqueKeysWithValues: file.services.map { name, raw in
                (name, Service(name: name, image: raw.image, environment: raw.environment?.values ?? [:]))
            })
    }

    public func service(running module: ServiceModule) -> Service? {
        services.values.first { $0.module == module }
    }

    /// The PostgreSQL container: the service whose image is `postgres`.
    public var postgres: Service? {
        services.values.first { $0.image?.hasPrefix("postgres:") == true || $0.image == "postgres" }
    }

    private struct RawFile: Decodable {
        let services: [String: RawService]
    }

    private struct RawService: Decodable {
        let image: String?
        let environment: Environment?
    }

    /// `environment:` as a mapping or as a list of `KEY=VALUE`.
    private struct Environment: Decodable {
        let values: [String: String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let mapping = try? container.decode([String: String].self) {
                values = mapping
            } else {
                let list = try container.decode([String].self)
                values = Dictionary(
                    list.map { entry in
                        let parts = entry.split(separator: "=", maxSplits: 1)
                        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                    }, uniquingKeysWith: { _, last in last })
            }
        }
    }
}

extension ComposeFile {
    /// `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}` and `$$` filled in from
    /// `variables`, as `docker compose` does; a required variable that is missing is an error.
    public static func interpolate(_ text: String, with variables: [String: String]) throws -> String {
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("$") {
                output += "$"
                rest = after.dropFirst()
            } else if after.hasPrefix("{"), let close = after.firstIndex(of: "}") {
                output += try substitute(String(after[after.index(after: after.startIndex)..<close]), variables)
                rest = after[after.index(after: close)...]
            } else {
                output += "$"
                rest = after
            }
        }
        return output + rest
    }

    private static func substitute(_ expression: String, _ variables: [String: String]) throws -> String {
        let name = String(expression.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let operation = expression.dropFirst(name.count)
        let value = variables[name]
        for (prefix, emptyCounts) in [(":?", true), ("?", false)] where operation.hasPrefix(prefix) {
            guard let value, !(emptyCounts && value.isEmpty) else {
                throw MissingVariable(name: name, message: String(operation.dropFirst(prefix.count)))
            }
            return value
        }
        if operation.hasPrefix(":-") { return value.flatMap { $0.isEmpty ? nil : $0 } ?? String(operation.dropFirst(2)) }
        if operation.hasPrefix("-") { return value ?? String(operation.dropFirst()) }
        return value ?? ""
    }

    public struct MissingVariable: Error, CustomStringConvertible {
        public let name: String
        public let message: String
        public var description: String { "\(name): \(message)" }
    }
}
