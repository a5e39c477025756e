public import Contracts
import Foundation
public import SQLKit

extension SQLRow {
    /// A typed id stored as UUID text.
    public func typedID<Tag>(_ column: String) throws -> TypedID<Tag> {
        let raw = try decode(column: column, as: String.self)
        guard let id = TypedID<Tag>(raw) else { throw CorruptRow(column: column, value: raw) }
        return id
    }

    /// Typed ids an aggregate joined with commas (`string_agg`, `group_concat`); none when the column is null.
    public func joinedIDs<Tag>(_ column: String) throws -> [TypedID<Tag>] {
        guard let raw = try decode(column: column, as: String?.self) else { return [] }
        return try raw.split(separator: ",").map {
            guard let id = TypedID<Tag>(String($0)) else { throw CorruptRow(column: column, value: String($0)) }
            return id
        }
    }

    /// An enum stored as its raw string.
    public func enumValue<T: RawRepresentable>(_ column: String) throws -> T where T.RawValue == String {
        let raw = try decode(column: column, as: String.self)
        guard let value = T(rawValue: raw) else { throw CorruptRow(column: column, value: raw) }
        return value
    }

    /// A value stored as JSON text (`StoredJSON.text`); nil when the column is null.
    public func json<T: Decodable>(_ column: String, as type: T.Type) throws -> T? {
        guard let text = try decode(column: column, as: String?.self) else { return nil }
        do { return try HuddleJSON.decoder.decode(T.self, from: Data(text.utf8)) } catch { throw CorruptRow(column: column, value: text) }
    }

    /// A value stored as JSON text in a column that is never null.
    public func requiredJSON<T: Decodable>(_ column: String, as type: T.Type) throws -> T {
        guard let value = try json(column, as: type) else { throw CorruptRow(column: column, value: "null") }
        return value
    }

    /// A list of enums stored as comma-separated raw strings; values this version does not know are skipped.
    public func enumList<T: RawRepresentable>(_ column: String) throws -> [T] where T.RawValue == String {
        try decode(column: column, as: String.self).split(separator: ",").compactMap { T(rawValue: String($0)) }
    }
}

/// A value kept as JSON text in one column, read back by `SQLRow.json`.
public enum StoredJSON {
    public static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try HuddleJSON.encoder.encode(value), as: UTF8.self)
    }
}

extension Sequence where Element: RawRepresentable, Element.RawValue == String {
    /// The stored form that `SQLRow.enumList` reads back.
    public var storedList: String { map(\.rawValue).joined(separator: ",") }
}

/// A stored value this version cannot read: a bug or a foreign write, never the client's fault (500).
public struct CorruptRow: Error, CustomStringConvertible {
    public let column: String
    public let value: String
    public init(column: String, value: String) {
        self.column = column
        self.value = value
    }
    public var description: String { "column \(column) holds '\(value)', which this version cannot read" }
}
