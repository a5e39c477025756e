import Foundation
import PostgresKit
import PostgresNIO
import SQLKit

/// A PostgreSQL row as the stores read it: a value whose Swift type PostgresNIO decodes itself is
/// decoded straight from its cell; anything else goes PostgresKit's way (`PostgresRow.sql()`), which
/// also takes such values, after first building a coding path naming the column and casting through
/// two layers of generic code for every value.
///
/// Why: that general path was 14.7 % of search's CPU in 50 km searches of a million games on
/// PostgreSQL (perf: six columns of ~45 rows a search, ~1 µs a value, a third of it the coding path).
/// What this reader does for a value is what PostgresKit's fast path ends in (`PostgresCell.decode`
/// with the default context), and it leaves to PostgresKit every case PostgresKit treats specially:
/// text in a column of a type of the database's own, numeric read as Double or Decimal, and every type
/// without PostgresNIO's decoding (JSON documents, legacy conversions).
struct PostgresRowReader: SQLRow {
    /// The row as PostgresNIO gives it (tests read it PostgresKit's way beside this reader).
    let row: PostgresRow
    private let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row
        cells = row.makeRandomAccess()
    }

    var allColumns: [String] { cells.map(\.columnName) }

    func contains(column: String) -> Bool { cells.contains(column) }

    func decodeNil(column: String) throws -> Bool { !cells.contains(column) || cells[column].bytes == nil }

    func decode<T: Decodable>(column: String, as type: T.Type) throws -> T {
        guard cells.contains(column), let decodable = T.self as? any PostgresDecodable.Type else {
            return try row.sql().decode(column: column, as: T.self)
        }
        let cell = cells[column]
        // `decodable` is `T`, so the cast holds; were it ever not to, PostgresKit's way still answers.
        guard Self.decodesAsItsType(cell, as: T.self), let value = try cell.decode(decodable, context: .default) as? T else {
            return try row.sql().decode(column: column, as: T.self)
        }
        return value
    }

    /// Whether PostgresKit decodes `cell` as `T` with PostgresNIO's own decoding, unchanged.
    private static func decodesAsItsType<T>(_ cell: PostgresCell, as _: T.Type) -> Bool {
        if cell.dataType.isUserDefined { return false }
        if cell.format == .binary && cell.dataType == .numeric && (T.self == Double.self || T.self == Double?.self) { return false }
        if T.self == Decimal.self || T.self == Decimal?.self { return false }
        return true
    }
}

extension PostgresBindings {
    /// Appends `value` as PostgresKit does when PostgresNIO encodes its type (or it is nil) and answers
    /// the type it was sent as (`.null` for nil: the server infers it); nil, with nothing appended, for
    /// a value that needs PostgresKit's other ways.
    mutating func appendEncodedByPostgresNIO<T: Encodable>(_ value: T) throws -> PostgresDataType? {
        if (value as Optional<Any>) == nil {
            appendNull()
            return .null
        }
        guard let encodable = value as? any PostgresThrowingDynamicTypeEncodable else { return nil }
        try append(encodable, context: .default)
        return encodable.psqlType
    }
}
