public import Foundation
public import SQLKit

/// The position in a list sorted by a time column, then id: stable when times repeat. Lists
/// newest first continue `before` it; lists soonest first continue `after` it.
public struct TimeCursor: Sendable, Equatable {
    public let time: Date
    public let id: String

    public init(time: Date, id: some CustomStringConvertible) {
        self.time = time
        self.id = id.description
    }

    public init?(_ page: PageRequest) throws {
        guard let text = page.cursor else { return nil }
        let parts = text.split(separator: "|", maxSplits: 1)
        guard parts.count == 2, let seconds = Double(parts[0]) else {
            throw CommonError.invalid("cursor", "is not a cursor this list gave out")
        }
        time = Date(timeIntervalSince1970: seconds)
        id = String(parts[1])
    }

    public var encoded: String { PageRequest.cursor("\(time.timeIntervalSince1970)|\(id)") }

    /// Rows that come after this one in a list ordered by (`timeColumn`, `idColumn`), ascending
    /// (`descending: false`) or descending.
    public func continuation(time timeColumn: SQLColumn, id idColumn: SQLColumn, descending: Bool) -> any SQLExpression {
        let beyond: SQLBinaryOperator = descending ? .lessThan : .greaterThan
        return SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(timeColumn, beyond, SQLBind(time)), .or,
                SQLBinaryExpression(
                    SQLBinaryExpression(timeColumn, .equal, SQLBind(time)), .and, SQLBinaryExpression(idColumn, beyond, SQLBind(id)))))
    }
}
