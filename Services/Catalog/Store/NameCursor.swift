import Foundation
import SQLKit
import ServiceHTTP

/// Lists sorted by name page on (lower-cased name, id): stable when names repeat, and cheap
/// through the `(name_key, id)` indexes.
struct NameCursor: Sendable, Equatable {
    let nameKey: String
    let id: String

    private static let separator: Character = "\u{1F}"

    init(nameKey: String, id: String) {
        self.nameKey = nameKey
        self.id = id
    }

    init?(_ page: PageRequest) throws {
        guard let text = page.cursor else { return nil }
        guard let split = text.lastIndex(of: Self.separator) else {
            throw CommonError.invalid("cursor", "is not a cursor this list gave out")
        }
        nameKey = String(text[..<split])
        id = String(text[text.index(after: split)...])
    }

    var encoded: String { PageRequest.cursor(nameKey + String(Self.separator) + id) }

    /// The cursor that continues after the item with this name and id.
    static func after(name: String, id: some CustomStringConvertible) -> String {
        NameCursor(nameKey: key(name), id: id.description).encoded
    }

    /// Rows strictly after this position.
    func condition(table: String) -> any SQLExpression {
        SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(SQLColumn("name_key", table: table), .greaterThan, SQLBind(nameKey)), .or,
                SQLBinaryExpression(
                    SQLBinaryExpression(SQLColumn("name_key", table: table), .equal, SQLBind(nameKey)), .and,
                    SQLBinaryExpression(SQLColumn("id", table: table), .greaterThan, SQLBind(id)))))
    }

    static func key(_ name: String) -> String { name.lowercased() }
}
