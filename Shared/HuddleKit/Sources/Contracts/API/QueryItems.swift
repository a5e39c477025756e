import Foundation

/// A query as a client sends it, written through the same `QueryField`s the server reads it with:
/// `Query.mineScope(.mine) + GamesAPI.gamesWhen(.past) + Query.limit(10)`. HuddleKit, the internal
/// client and the test client all take one, so a name, a format or a default is written once, in
/// the description; each client refuses a field its operation does not list.
public struct QueryItems: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public let name: String
        public let value: String
    }

    /// The name–text pairs, in the order written.
    public private(set) var items: [Item]
    /// The parameters the written fields are listed under in a description (a position's is
    /// `position`, though it is sent as `lat` and `lng`).
    private var parameters: Set<String>

    public init() {
        items = []
        parameters = []
    }

    init(items: [Item], parameters: Set<String>) {
        self.items = items
        self.parameters = parameters
    }

    /// Both, the right side's values replacing the left's of the same name (a page's next `cursor`).
    public static func + (lhs: QueryItems, rhs: QueryItems) -> QueryItems {
        let replaced = Set(rhs.items.map(\.name))
        return QueryItems(
            items: lhs.items.filter { !replaced.contains($0.name) } + rhs.items, parameters: lhs.parameters.union(rhs.parameters))
    }

    /// The items, once every field written is one `operation` lists.
    public func items(for operation: APIOperation) throws(UnlistedQueryField) -> [Item] {
        let listed = Set(operation.query.map(\.name))
        if let unlisted = parameters.subtracting(listed).sorted().first {
            throw UnlistedQueryField(operation: operation.name, field: unlisted)
        }
        return items
    }

    /// `name=value&…`, each part percent-encoded but for RFC 3986's unreserved characters (so a `+`
    /// in a value is sent as `%2B`, never read as a space).
    public var encoded: String {
        items.map { "\(Self.escape($0.name))=\(Self.escape($0.value))" }.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension QueryField {
    /// This field with `value`, as a client sends it: `Query.limit(5)`. An absent optional writes
    /// nothing, so it names no parameter either (`pages` adds `Query.cursor(nil)` to any list).
    public func callAsFunction(_ value: Value) -> QueryItems {
        let written = items(for: value).map { QueryItems.Item(name: $0.name, value: $0.value) }
        return QueryItems(items: written, parameters: written.isEmpty ? [] : Set(queryParameters.map(\.name)))
    }
}

/// A client wrote a query field the operation does not list: a mistake in the calling code, which
/// the server would refuse (422 "is not a parameter of this operation").
public struct UnlistedQueryField: Error, CustomStringConvertible, Equatable {
    public let operation: String
    public let field: String
    public init(operation: String, field: String) {
        self.operation = operation
        self.field = field
    }
    public var description: String { "\(operation) lists no query field \(field)" }
}
