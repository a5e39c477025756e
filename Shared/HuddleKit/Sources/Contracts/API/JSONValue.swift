public import Foundation

/// Any JSON value, as it arrived: what a body is checked against its schema as, before it is
/// decoded into its Swift type.
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

    /// The value a JSON text holds, read by Foundation's `JSONSerialization`: what request bodies and
    /// socket frames are checked as. Decoding `JSONValue` itself tries each kind in turn, and every
    /// kind that fails throws; for a ticket's body that took 24 µs against 7.6 µs for this (release
    /// build, 100,000 reads each). Betting's CPU a ticket at 4 clients went from 628–658 to 592–619 µs
    /// (`huddle-bench tickets`, three alternated pairs).
    public init(parsing data: Data) throws {
        self.init(foundation: try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
    }

    /// A value as `JSONSerialization` gives it: strings, numbers (a Bool is a number there, of its own
    /// class), arrays, dictionaries and null.
    private init(foundation object: Any) {
        switch object {
        case let text as String: self = .string(text)
        case let fields as [String: Any]: self = .object(fields.mapValues(JSONValue.init(foundation:)))
        case let items as [Any]: self = .array(items.map(JSONValue.init(foundation:)))
        case let number as NSNumber:
            if type(of: number) == Self.booleanClass {
                self = .bool(number.boolValue)
            } else if let integer = Int64(exactly: number) {
                self = .integer(integer)
            } else {
                self = .number(number.doubleValue)
            }
        default: self = .null
        }
    }

    /// The class Foundation gives true and false, on Linux as on Apple's systems.
    private static let booleanClass = type(of: NSNumber(value: true))

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

    /// The JSON type names this value has (an integer is also a number).
    var typeNames: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .integer: ["integer", "number"]
        case .number(let value): value.rounded() == value && value.isFinite ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }

    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
