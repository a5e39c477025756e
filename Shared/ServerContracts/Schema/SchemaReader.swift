public import Contracts
import Foundation

/// Derives the JSON schema of a `Decodable` type from the type itself: it decodes the type with a
/// decoder that answers every question with a sample value and writes down what was asked — which
/// keys, of which types, required (`decode`) or optional (`decodeIfPresent`, which asks `decodeNil`
/// first). So a field's name, type and presence are never written a second time for the document,
/// and cannot drift from what the server's decoder does. Object types become named components.
public final class SchemaReader {
    public private(set) var components: [String: JSONSchema] = [:]
    private var inProgress: Set<String> = []

    public init() {}

    public struct Unsupported: Error, CustomStringConvertible {
        public let description: String
    }

    /// The schema of `type`: a reference for a named object or enum, inline otherwise.
    public func schema(for type: any Decodable.Type) throws -> JSONSchema {
        try read(type).schema
    }

    /// A value of `type` made of the sample values the schema was read with: of the right shape,
    /// though not always one a server accepts (empty texts, zeros). Tests start from it.
    public func sample(of type: any Decodable.Type) throws -> any Decodable {
        func open<T: Decodable>(_ type: T.Type) throws -> any Decodable { try read(type).sample }
        return try open(type)
    }

    func read<T: Decodable>(_ type: T.Type) throws -> (schema: JSONSchema, sample: T) {
        if let leaf = Self.leaf(type) { return leaf }
        if let described = type as? any SchemaDescribed.Type {
            return (described.schema, try Self.cast(described.schemaSample, to: type))
        }
        if let wire = type as? any WireEnum.Type {
            let name = Self.componentName(of: type)
            var schema = JSONSchema.oneOf(Self.cases(of: wire))
            schema.description = Self.description(of: wire)
            components[name] = schema
            return (.reference(name), try Self.cast(Self.firstCase(of: wire), to: type))
        }
        let name = Self.componentName(of: type)
        guard !inProgress.contains(name) else {
            throw Unsupported(description: "\(name) contains itself; describe it with SchemaDescribed")
        }
        inProgress.insert(name)
        defer { inProgress.remove(name) }
        let recorder = Recorder(reader: self)
        let sample = try T(from: recorder)
        var schema = recorder.result()
        guard schema.type == ["object"], schema.additionalProperties == nil else { return (schema, sample) }
        if let constrained = type as? any FieldConstraints.Type {
            for (field, rule) in constrained.constraints {
                guard let property = schema.properties?[field] else {
                    throw Unsupported(description: "\(name).constraints names \(field), which the type does not decode")
                }
                schema.properties?[field] = Self.constrain(property, with: rule)
            }
            schema.description = constrained.note
        }
        components[name] = schema
        return (.reference(name), sample)
    }

    /// A constraint applies to the value, also when the field may be null.
    private static func constrain(_ property: JSONSchema, with rule: JSONSchema) -> JSONSchema {
        if let choices = property.oneOf, choices.count == 2, choices[1] == .type("null") {
            var schema = property
            schema.oneOf = [choices[0].merged(with: rule), choices[1]]
            return schema
        }
        return property.merged(with: rule)
    }

    /// The samples above are of `type` by construction; a mismatch names the type instead of crashing.
    private static func cast<T>(_ value: Any, to type: T.Type) throws -> T {
        guard let value = value as? T else { throw Unsupported(description: "no sample value of type \(T.self)") }
        return value
    }

    private static func leaf<T>(_ type: T.Type) -> (schema: JSONSchema, sample: T)? {
        let found: (JSONSchema, Any)? =
            switch type {
            case is String.Type: (.string, "")
            case is Bool.Type: (.boolean, false)
            case is Int.Type: (.safeInteger, 0)
            case is Int64.Type: (.safeInteger, Int64(0))
            case is Int32.Type: (.integer, Int32(0))
            case is UInt.Type: (.integer, UInt(0))
            case is Double.Type: (.number, 0.0)
            case is Float.Type: (.number, Float(0))
            case is Date.Type: (.dateTime, Date(timeIntervalSince1970: 0))
            case is UUID.Type: (.uuid, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
            case is URL.Type: (JSONSchema.string.format("uri"), URL(string: "https://huddle.dev")!)
            default: nil
            }
        guard let (schema, sample) = found, let value = sample as? T else { return nil }
        return (schema, value)
    }

    private static func cases<E: WireEnum>(of type: E.Type) -> [String] { E.allCases.map(\.rawValue) + E.aliases.keys.sorted() }
    private static func description<E: WireEnum>(of type: E.Type) -> String? { E.wireDescription }
    private static func firstCase<E: WireEnum>(of type: E.Type) -> E { E.allCases.first! }

    /// `Contracts.Page<Contracts.Team>` → `TeamPage`; `Contracts.RevokedSessions.Entry` → `RevokedSessionsEntry`.
    public static func componentName(of type: Any.Type) -> String {
        func name(_ text: Substring) -> String {
            guard let open = text.firstIndex(of: "<"), text.hasSuffix(">") else {
                return text.split(separator: ".").dropFirst(text.contains(".") ? 1 : 0).joined()
            }
            let outer = name(text[..<open])
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
            return inner.split(separator: ",").map { name(Substring($0.trimmingCharacters(in: .whitespaces))) }.joined() + outer
        }
        return name(Substring(String(reflecting: type)))
    }
}

// MARK: The recording decoder

/// What one `init(from:)` asked of its decoder.
private final class Recorder: Decoder {
    let reader: SchemaReader
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    enum Shape {
        case none
        case keyed(properties: [String: JSONSchema], order: [String], optional: Set<String>, map: JSONSchema?)
        case unkeyed(items: JSONSchema?)
        case single(JSONSchema, nullable: Bool)
    }
    var shape = Shape.none

    init(reader: SchemaReader) { self.reader = reader }

    func result() -> JSONSchema {
        switch shape {
        case .none:
            return .object
        case .keyed(let properties, let order, let optional, let map):
            var schema = JSONSchema.object
            if let map {
                schema.additionalProperties = map
                return schema
            }
            schema.properties = properties.mapValues { $0 }
            for name in optional { schema.properties?[name] = properties[name].map(Self.optionalField) }
            let required = order.filter { !optional.contains($0) }
            schema.required = required.isEmpty ? nil : required
            return schema
        case .unkeyed(let items):
            return .array(of: items ?? JSONSchema())
        case .single(let schema, let nullable):
            return nullable ? schema.orNull : schema
        }
    }

    /// An optional field of a JSON type may be null (`["string", "null"]`). One holding a named
    /// object or enum is left out instead: Swift's encoders leave out a nil field, so such a field is
    /// absent rather than null on the wire, and `oneOf: [$ref, null]` is the one form of it that
    /// swift-openapi-generator drops (the generated type lost `Game.location` and every other).
    private static func optionalField(_ schema: JSONSchema) -> JSONSchema {
        schema.ref != nil ? schema : schema.orNull
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .none = shape { shape = .keyed(properties: [:], order: [], optional: [], map: nil) }
        return KeyedDecodingContainer(KeyedRecorder<Key>(recorder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if case .none = shape { shape = .unkeyed(items: nil) }
        return UnkeyedRecorder(recorder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleRecorder(recorder: self) }

    func recordProperty(_ name: String, _ schema: JSONSchema) {
        guard case .keyed(var properties, var order, let optional, let map) = shape else { return }
        if properties[name] == nil { order.append(name) }
        properties[name] = schema
        shape = .keyed(properties: properties, order: order, optional: optional, map: map)
    }

    func recordOptional(_ name: String) {
        guard case .keyed(let properties, var order, var optional, let map) = shape else { return }
        optional.insert(name)
        if !order.contains(name) { order.append(name) }
        shape = .keyed(properties: properties, order: order, optional: optional, map: map)
    }

    func recordMap(_ schema: JSONSchema) {
        guard case .keyed(let properties, let order, let optional, _) = shape else { return }
        shape = .keyed(properties: properties, order: order, optional: optional, map: schema)
    }
}

/// The key a dictionary's `allKeys` is answered with: whatever is decoded under it is the map's value.
private struct MapKey: CodingKey {
    static let name = "*additional*"
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: Recorder
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { Key(stringValue: MapKey.name).map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.recordOptional(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decode(type, at: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, at: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, at: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, at: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, at: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, at: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, at: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, at: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, at: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, at: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, at: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, at: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, at: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, at: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, at: key) }

    private func decode<T: Decodable>(_ type: T.Type, at key: Key) throws -> T {
        let (schema, sample) = try recorder.reader.read(type)
        if key.stringValue == MapKey.name { recorder.recordMap(schema) } else { recorder.recordProperty(key.stringValue, schema) }
        return sample
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw SchemaReader.Unsupported(description: "nested containers (at \(key.stringValue)) are not described")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw SchemaReader.Unsupported(description: "nested containers (at \(key.stringValue)) are not described")
    }

    func superDecoder() throws -> any Decoder { recorder }
    func superDecoder(forKey key: Key) throws -> any Decoder { recorder }
}

private struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let recorder: Recorder
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(recorder: Recorder) { self.recorder = recorder }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeAny(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeAny(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeAny(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeAny(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeAny(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeAny(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeAny(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeAny(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeAny(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeAny(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeAny(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeAny(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeAny(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeAny(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeAny(type) }

    private mutating func decodeAny<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, sample) = try recorder.reader.read(type)
        recorder.shape = .unkeyed(items: schema)
        currentIndex += 1
        return sample
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw SchemaReader.Unsupported(description: "nested containers in arrays are not described")
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw SchemaReader.Unsupported(description: "nested containers in arrays are not described")
    }

    mutating func superDecoder() throws -> any Decoder { recorder }
}

private struct SingleRecorder: SingleValueDecodingContainer {
    let recorder: Recorder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        if case .single(let schema, _) = recorder.shape {
            recorder.shape = .single(schema, nullable: true)
        } else {
            recorder.shape = .single(JSONSchema(), nullable: true)
        }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeAny(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeAny(type) }
    func decode(_ type: String.Type) throws -> String { try decodeAny(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeAny(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeAny(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeAny(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeAny(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeAny(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeAny(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeAny(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeAny(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeAny(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeAny(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeAny(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeAny(type) }

    private func decodeAny<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, sample) = try recorder.reader.read(type)
        var nullable = false
        if case .single(_, let wasNullable) = recorder.shape { nullable = wasNullable }
        recorder.shape = .single(schema, nullable: nullable)
        return sample
    }
}
