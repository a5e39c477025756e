public import Contracts
import Foundation
public import Hummingbird

/// `?limit=` (default 20, at most 100) and an opaque `?cursor=` that the service made itself.
public struct PageRequest: Sendable {
    public var limit: Int
    /// The decoded cursor text, or nil for the first page.
    public var cursor: String?

    public init(limit: Int = 20, cursor: String? = nil) {
        self.limit = limit
        self.cursor = cursor
    }

    /// The page a request asks for through its `limit` field (`Query.limit` unless the operation
    /// describes another) and `Query.cursor`; the cursor is read back into the text it was made from.
    public init(_ request: Request, limit: QueryField<Int> = Query.limit) throws {
        self.limit = try request.query(limit)
        if let raw = try request.query(Query.cursor), !raw.isEmpty {
            // The schema held it to the base64url alphabet; what it decodes to is the service's own text.
            guard let data = Data(base64URLEncoded: raw), let text = String(data: data, encoding: .utf8) else {
                throw CommonError.validation([Query.cursor.problem(in: { _ in raw })])
            }
            self.cursor = text
        }
    }

    /// A cursor that decodes as an integer position.
    public func integerCursor() throws -> Int64? {
        guard let cursor else { return nil }
        guard let value = Int64(cursor) else { throw CommonError.invalid("cursor", "is not a cursor this list gave out") }
        return value
    }

    /// Encodes a position for `nextCursor`.
    public static func cursor(_ text: String) -> String { Data(text.utf8).base64URLEncodedString() }
}

extension PageRequest {
    /// A page from `limit + 1` fetched rows: the extra row only says that there is more, and the
    /// cursor is made from the last row shown.
    public func page<Row, Item>(_ rows: [Row], cursor: (Row) -> String, item: (Row) throws -> Item) rethrows -> Page<Item> {
        let shown = rows.prefix(limit)
        return Page(items: try shown.map(item), nextCursor: rows.count > limit ? shown.last.map(cursor) : nil)
    }

    public func page<Item>(_ rows: [Item], cursor: (Item) -> String) -> Page<Item> {
        page(rows, cursor: cursor, item: { $0 })
    }
}
