import Foundation

/// A JSON Schema (2020-12, as OpenAPI 3.1 uses it), as much of it as Huddle's descriptions need.
/// Encodes to the document as written; `nil` members are left out.
public struct JSONSchema: Codable, Sendable, Equatable {
    public var ref: String?
    /// One type name, or several (`["string", "null"]`).
    public var type: [String]?
    public var format: String?
    public var `enum`: [String]?
    public var minimum: Double?
    public var maximum: Double?
    public var exclusiveMinimum: Double?
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: String?
    public var minItems: Int?
    public var maxItems: Int?
    public var uniqueItems: Bool?
    public var required: [String]?
    public var properties: [String: JSONSchema]?
    public var description: String?
    public var `default`: DefaultValue?
    public var minProperties: Int?
    // Recursive members live in arrays: a struct cannot hold an optional of itself.
    private var itemsStorage: [JSONSchema]?
    private var additionalStorage: [JSONSchema]?
    public var oneOf: [JSONSchema]?
    public var anyOf: [JSONSchema]?
    public var allOf: [JSONSchema]?

    public init() {}

    public var items: JSONSchema? {
        get { itemsStorage?.first }
        set { itemsStorage = newValue.map { [$0] } }
    }

    public var additionalProperties: JSONSchema? {
        get { additionalStorage?.first }
        set { additionalStorage = newValue.map { [$0] } }
    }

    /// An object with only the `properties` named (`"additionalProperties": false`).
    public var closed = false

    /// A default of a query parameter: a number or a string.
    public enum DefaultValue: Codable, Sendable, Equatable {
        case number(Double)
        case text(String)
        case flag(Bool)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let value) where value == value.rounded() && abs(value) < 1e15: try container.encode(Int64(value))
            case .number(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            case .flag(let value): try container.encode(value)
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .flag(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case ref = "$ref"
        case type, format, `enum`, minimum, maximum, exclusiveMinimum, minLength, maxLength, pattern, minItems, maxItems
        case uniqueItems, required, properties, description, `default`, minProperties, oneOf, anyOf, allOf
        case itemsStorage = "items"
        case additionalStorage = "additionalProperties"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(ref, forKey: .ref)
        if let type { type.count == 1 ? try container.encode(type[0], forKey: .type) : try container.encode(type, forKey: .type) }
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(`enum`, forKey: .enum)
        try container.encodeIfPresent(minimum, forKey: .minimum)
        try container.encodeIfPresent(maximum, forKey: .maximum)
        try container.encodeIfPresent(exclusiveMinimum, forKey: .exclusiveMinimum)
        try container.encodeIfPresent(minLength, forKey: .minLength)
        try container.encodeIfPresent(maxLength, forKey: .maxLength)
        try container.encodeIfPresent(pattern, forKey: .pattern)
        try container.encodeIfPresent(minItems, forKey: .minItems)
        try container.encodeIfPresent(maxItems, forKey: .maxItems)
        try container.encodeIfPresent(uniqueItems, forKey: .uniqueItems)
        try container.encodeIfPresent(required, forKey: .required)
        try container.encodeIfPresent(properties, forKey: .properties)
        try container.encodeIfPresent(items, forKey: .itemsStorage)
        if closed { try container.encode(false, forKey: .additionalStorage) }
        try container.encodeIfPresent(additionalProperties, forKey: .additionalStorage)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(`default`, forKey: .default)
        try container.encodeIfPresent(minProperties, forKey: .minProperties)
        try container.encodeIfPresent(oneOf, forKey: .oneOf)
        try container.encodeIfPresent(anyOf, forKey: .anyOf)
        try container.encodeIfPresent(allOf, forKey: .allOf)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ref = try container.decodeIfPresent(String.self, forKey: .ref)
        if let one = try? container.decodeIfPresent(String.self, forKey: .type) {
            type = [one]
        } else {
            type = try container.decodeIfPresent([String].self, forKey: .type)
        }
        format = try container.decodeIfPresent(String.self, forKey: .format)
        `enum` = try container.decodeIfPresent([String].self, forKey: .enum)
        minimum = try container.decodeIfPresent(Double.self, forKey: .minimum)
        maximum = try container.decodeIfPresent(Double.self, forKey: .maximum)
        exclusiveMinimum = try container.decodeIfPresent(Double.self, forKey: .exclusiveMinimum)
        minLength = try container.decodeIfPresent(Int.self, forKey: .minLength)
        maxLength = try container.decodeIfPresent(Int.self, forKey: .maxLength)
        pattern = try container.decodeIfPresent(String.self, forKey: .pattern)
        minItems = try container.decodeIfPresent(Int.self, forKey: .minItems)
        maxItems = try container.decodeIfPresent(Int.self, forKey: .maxItems)
        uniqueItems = try container.decodeIfPresent(Bool.self, forKey: .uniqueItems)
        required = try container.decodeIfPresent([String].self, forKey: .required)
        properties = try container.decodeIfPresent([String: JSONSchema].self, forKey: .properties)
        items = try container.decodeIfPresent(JSONSchema.self, forKey: .itemsStorage)
        if (try? container.decodeIfPresent(Bool.self, forKey: .additionalStorage)) == false {
            closed = true
        } else {
            additionalProperties = try container.decodeIfPresent(JSONSchema.self, forKey: .additionalStorage)
        }
        description = try container.decodeIfPresent(String.self, forKey: .description)
        `default` = try container.decodeIfPresent(DefaultValue.self, forKey: .default)
        minProperties = try container.decodeIfPresent(Int.self, forKey: .minProperties)
        oneOf = try container.decodeIfPresent([JSONSchema].self, forKey: .oneOf)
        anyOf = try container.decodeIfPresent([JSONSchema].self, forKey: .anyOf)
        allOf = try container.decodeIfPresent([JSONSchema].self, forKey: .allOf)
    }
}

// MARK: Building schemas

extension JSONSchema {
    public static func type(_ name: String) -> JSONSchema {
        var schema = JSONSchema()
        schema.type = [name]
        return schema
    }

    public static let string = type("string")
    public static let integer = type("integer")
    public static let number = type("number")
    public static let boolean = type("boolean")
    public static let object = type("object")
    public static let uuid = string.format("uuid").pattern(whole("[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}"))
    public static let dateTime = string.format("date-time")

    public static func reference(_ name: String) -> JSONSchema {
        var schema = JSONSchema()
        schema.ref = "#/components/schemas/\(name)"
        return schema
    }

    public static func array(of items: JSONSchema) -> JSONSchema {
        var schema = type("array")
        schema.items = items
        return schema
    }

    public static func oneOf(_ choices: [String]) -> JSONSchema {
        var schema = string
        schema.enum = choices
        return schema
    }

    /// A string of `length` characters (counted as Swift counts them, which is what servers check).
    public static func text(_ length: ClosedRange<Int>) -> JSONSchema { string.length(length) }

    /// Any integer a JSON number holds exactly everywhere (±2⁵³, JavaScript's safe range): what an
    /// `Int` field takes, so that no client is invited to send a number the server cannot read.
    public static let safeInteger = integer(-(1 << 53)...(1 << 53))

    public static func integer(_ range: ClosedRange<Int>) -> JSONSchema {
        var schema = integer
        schema.minimum = Double(range.lowerBound)
        schema.maximum = Double(range.upperBound)
        return schema
    }

    public static func number(_ range: ClosedRange<Double>) -> JSONSchema {
        var schema = number
        schema.minimum = range.lowerBound
        schema.maximum = range.upperBound
        return schema
    }

    public static let latitude = number(-90...90)
    public static let longitude = number(-180...180)

    public func format(_ format: String) -> JSONSchema {
        var schema = self
        schema.format = format
        return schema
    }

    public func length(_ length: ClosedRange<Int>) -> JSONSchema {
        var schema = self
        schema.minLength = length.lowerBound
        schema.maxLength = length.upperBound
        return schema
    }

    /// A pattern matching all of a text and nothing more. `$` will not do: Python's `re`, which
    /// schema-driven test generators use, lets it match before a final newline; "not followed by
    /// any character" means the end of the text in every dialect.
    public static func whole(_ body: String) -> String { "^(?:\(body))(?![\\s\\S])" }

    public func pattern(_ pattern: String) -> JSONSchema {
        var schema = self
        schema.pattern = pattern
        return schema
    }

    public func items(_ count: ClosedRange<Int>) -> JSONSchema {
        var schema = self
        schema.minItems = count.lowerBound
        schema.maxItems = count.upperBound
        return schema
    }

    public func described(_ text: String) -> JSONSchema {
        var schema = self
        schema.description = text
        return schema
    }

    public func defaulting(to value: DefaultValue) -> JSONSchema {
        var schema = self
        schema.default = value
        return schema
    }

    /// The same schema, also allowing `null`.
    public var orNull: JSONSchema {
        if let type, !type.contains("null") {
            var schema = self
            schema.type = type + ["null"]
            if let values = schema.enum { schema.enum = values }
            return schema
        }
        if type == nil {
            var schema = JSONSchema()
            schema.oneOf = [self, .type("null")]
            return schema
        }
        return self
    }

    /// Members of `other` that are set replace this schema's (a field's constraints over its derived type).
    public func merged(with other: JSONSchema) -> JSONSchema {
        var schema = self
        if other.format != nil { schema.format = other.format }
        if other.enum != nil { schema.enum = other.enum }
        if other.minimum != nil { schema.minimum = other.minimum }
        if other.maximum != nil { schema.maximum = other.maximum }
        if other.exclusiveMinimum != nil { schema.exclusiveMinimum = other.exclusiveMinimum }
        if other.minLength != nil { schema.minLength = other.minLength }
        if other.maxLength != nil { schema.maxLength = other.maxLength }
        if other.pattern != nil { schema.pattern = other.pattern }
        if other.minItems != nil { schema.minItems = other.minItems }
        if other.maxItems != nil { schema.maxItems = other.maxItems }
        if other.uniqueItems != nil { schema.uniqueItems = other.uniqueItems }
        if other.description != nil { schema.description = other.description }
        if other.minProperties != nil { schema.minProperties = other.minProperties }
        if let items = other.items { schema.items = schema.items.map { $0.merged(with: items) } ?? items }
        return schema
    }
}

/// A wire type whose fields carry rules its Swift type cannot say (lengths, ranges, formats). The
/// document adds them to the schema derived from the type, and servers check the same values
/// (`FieldRules`), so the rule is written here once.
public protocol FieldConstraints {
    /// Per field name, the constraints to add; an array field's `items` constrain its elements.
    static var constraints: [String: JSONSchema] { get }
    /// Rules across fields, stated in the schema's description (e.g. "lat and lng together").
    static var note: String? { get }
}

extension FieldConstraints {
    public static var note: String? { nil }
}

/// A string enum on the wire; its schema lists the cases.
public protocol WireEnum: CaseIterable, RawRepresentable, Codable, Sendable where RawValue == String {
    /// Other names a client may send for a case (the schema lists them beside the cases); the
    /// server always answers with the case's own.
    static var aliases: [String: Self] { get }
    /// What the schema says of the values, when they need saying.
    static var wireDescription: String? { get }
}

extension WireEnum {
    public static var aliases: [String: Self] { [:] }
    public static var wireDescription: String? { nil }
}

/// A type with a schema of its own instead of one derived from its Codable shape (ids, times).
public protocol SchemaDescribed {
    static var schema: JSONSchema { get }
    /// Any value: the schema reader hands it to containers that decode this type.
    static var schemaSample: Self { get }
}

extension TypedID: SchemaDescribed {
    public static var schema: JSONSchema { .uuid }
    public static var schemaSample: TypedID { TypedID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))) }
}
