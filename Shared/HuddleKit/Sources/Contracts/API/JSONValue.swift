import Foundation

/// Any JSON value, as it arrived: a section of a player's data export, and (on the server) what a body
/// is checked against its schema as, before it is decoded into its Swift type.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each kind tried before the right one fails with a DecodingError, whose message is built
        // as it is thrown: in that order, a ticket's body (an object of strings, an integer, an
        // array of objects and a Bool) cost 38 failed attempts, and the tree behind the schema check
        // was 7 % of betting's CPU a ticket (perf, 4 clients). The kinds bodies hold most come
        // first: 14 attempts. Which kind answers does not depend on the order, but for the integer
        // before the number: a JSON decoder reads `true` as no number and `1` as no Bool, a string
        // as nothing else, and a number as Int64 only when it has no fraction.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
