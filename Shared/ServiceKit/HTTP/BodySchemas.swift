public import Contracts
import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// The schema of each request body type, derived once from the type as the OpenAPI document derives
/// it (`SchemaReader`), and the check of a body against it.
public final class BodySchemas: Sendable {
    public static let shared = BodySchemas()

    private struct Entry: Sendable {
        let root: JSONSchema
        let validator: SchemaValidator
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

    private func entry<T: Decodable>(for type: T.Type) -> Entry? {
        let key = ObjectIdentifier(type)
        if let known = entries.withLockedValue({ $0[key] }) { return known }
        let reader = SchemaReader()
        // A type the reader cannot describe is not in the document either; its decoder alone checks it.
        let entry = (try? reader.schema(for: type)).map { Entry(root: $0, validator: SchemaValidator(components: reader.components)) }
        entries.withLockedValue { $0[key] = entry }
        return entry
    }
}
