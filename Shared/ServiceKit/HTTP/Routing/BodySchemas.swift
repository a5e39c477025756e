public import Contracts
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import ServerContracts

/// The schema of each request body type, derived once from the type as the OpenAPI document derives
/// it (`SchemaReader`), and the check of a body against it.
public final class BodySchemas: Sendable {
    public static let shared = BodySchemas()

    private struct Entry: Sendable {
        let root: JSONSchema
        let validator: SchemaValidator
        let components: [String: JSONSchema]
    }

    private let entries = NIOLockedValueBox<[ObjectIdentifier: Entry?]>([:])

    /// Throws a 422 naming every field of `value` that breaks the schema of `type`.
    public func check<T: Decodable>(_ value: JSONValue, as type: T.Type) throws {
        guard let entry = entry(for: type) else { return }
        try FieldRules.require(entry.validator.problems(in: value, against: entry.root))
    }

    /// `value` as `type`, once it keeps every rule of `type`'s schema: what a socket frame is read
    /// with, as a body is by `decodeJSON`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try check(value, as: type)
        do {
            return try HuddleJSON.decoder.decode(type, from: try HuddleJSON.encoder.encode(value))
        } catch let error as DecodingError {
            throw Request.problem(for: error)
        }
    }

    /// A browser form's fields as the JSON object `type`'s schema describes, to be checked and decoded
    /// as a JSON body is: the first value of each field the schema names (others are left out, as a
    /// JSON body's unknown fields are), `true` and `false` as booleans and digits as integers where
    /// the schema wants those, text otherwise.
    public func formObject<T: Decodable>(_ fields: [(name: String, value: String)], as type: T.Type) -> JSONValue {
        guard let entry = entry(for: type) else { return .object([:]) }
        let schema = entry.root.ref.flatMap { entry.components[String($0.split(separator: "/").last ?? "")] } ?? entry.root
        var object: [String: JSONValue] = [:]
        for (name, value) in fields where object[name] == nil {
            guard let property = schema.properties?[name] else { continue }
            let types = property.type ?? []
            if types.contains("boolean"), let flag = Bool(value) {
                object[name] = .bool(flag)
            } else if types.contains("integer"), let number = Int64(value) {
                object[name] = .integer(number)
            } else {
                object[name] = .string(value)
            }
        }
        return .object(object)
    }

    private func entry<T: Decodable>(for type: T.Type) -> Entry? {
        let key = ObjectIdentifier(type)
        if let known = entries.withLockedValue({ $0[key] }) { return known }
        let reader = SchemaReader()
        // A type the reader cannot describe is not in the document either; its decoder alone checks it.
        let entry = (try? reader.schema(for: type)).map {
            Entry(root: $0, validator: SchemaValidator(components: reader.components), components: reader.components)
        }
        entries.withLockedValue { $0[key] = entry }
        return entry
    }
}
