public import Contracts
public import HummingbirdCore
import ServerContracts

/// The query of a request checked against its operation's description before the handler runs:
/// a parameter the description does not name is a 422 naming it (rather than ignored, which let a
/// mistyped filter return everything unfiltered), and each value must parse as its schema's type and
/// keep its bounds, enum or pattern — the same rules the document states.
///
/// Made once for each operation, when its route is registered: building the list of names from the
/// description on every request was ~1 % of search's CPU a request (perf, a 50 km search).
public struct QueryRules: Sendable {
    /// Each name a client may send, with its schema, in name order (the order problems are listed in).
    private let described: [(name: String, schema: JSONSchema, required: Bool)]
    private let names: Set<String>

    public init(_ operation: APIOperation) {
        described = Self.describedParameters(of: operation).map { (name: $0.key, schema: $0.value.0, required: $0.value.required) }
            .sorted { $0.name < $1.name }
        names = Set(described.map(\.name))
    }

    public func check(_ present: FlatDictionary<Substring, Substring>) throws {
        var problems: [Problem.FieldError] = []
        if present.contains(where: { !names.contains(String($0.key)) }) {
            for name in Set(present.map { String($0.key) }).subtracting(names).sorted() {
                problems.append(.invalid(name, "is not a parameter of this operation"))
            }
        }
        for (name, schema, required) in described {
            guard let raw = present[Substring(name)] else {
                if required { problems.append(.invalid(name, "is required")) }
                continue
            }
            guard let value = Self.value(of: String(raw), as: schema) else {
                problems.append(.invalid(name, ProblemText(english: "must be \(SchemaValidator.describe(schema.type ?? ["string"]))")))
                continue
            }
            problems += SchemaValidator(components: [:]).problems(in: value, against: schema, at: name)
        }
        try FieldRules.require(problems)
    }

    /// Each name a client may send, with its schema; an object parameter is sent as its fields
    /// (OpenAPI's form style, exploded: `position` as `lat=…&lng=…`).
    static func describedParameters(of operation: APIOperation) -> [String: (JSONSchema, required: Bool)] {
        var names: [String: (JSONSchema, required: Bool)] = [:]
        for parameter in operation.query {
            if parameter.schema.type == ["object"], let properties = parameter.schema.properties {
                for (name, schema) in properties { names[name] = (schema, parameter.required) }
            } else {
                names[parameter.name] = (parameter.schema, parameter.required)
            }
        }
        return names
    }

    /// The text of a parameter read as its schema's JSON type; nil when it does not parse as one.
    static func value(of raw: String, as schema: JSONSchema) -> JSONValue? {
        switch schema.type?.first(where: { $0 != "null" }) {
        case "integer": Int64(raw).map(JSONValue.integer)
        case "number": Double(raw).flatMap { $0.isFinite ? JSONValue.number($0) : nil }
        case "boolean": Bool(raw).map(JSONValue.bool)
        default: .string(raw)
        }
    }
}
