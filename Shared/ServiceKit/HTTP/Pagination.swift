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

    public init(_ request: Request) throws {
        let parameters = request.uri.queryParameters
        if let raw = parameters["limit"] {
            guard let limit = Int(String(raw)), (1...100).contains(limit) else {
                throw CommonError.invalid("limit", "must be an integer from 1 to 100")
            }
            self.limit = limit
        } else {
            self.limit = 20
        }
        if let raw = parameters["cursor"], !raw.isEmpty {
            guard raw.count <= PageCursor.maxLength, raw.utf8.allSatisfy(Self.isCursorByte),
                let data = Data(base64URLEncoded: String(raw)), let text = String(data: data, encoding: .utf8)
            else {
                throw CommonError.invalid("cursor", "is not a cursor this list gave out")
            }
            self.cursor = text
        }
    }

    /// `PageCursor.alphabet`: base64url without padding.
    private static func isCursorByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
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
