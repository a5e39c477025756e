public import Foundation
public import SQLKit
public import ServiceHTTP

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
    /// (`descending: false`) or descending. Times within a microsecond count as equal: PostgreSQL
    /// keeps microseconds, and SQLite keeps REAL seconds, which SQLiteNIO rounds to the microsecond
    /// when it reads them — so a stored time and the one in the cursor may differ by half a
    /// microsecond plus a Double's step at today's seconds (about 0.24 µs). Half a microsecond of
    /// tolerance let a page repeat its last row now and then.
    public func continuation(time timeColumn: SQLColumn, id idColumn: SQLColumn, descending: Bool) -> any SQLExpression {
        let tolerance = 0.000_001
        let low = SQLBind(time.addingTimeInterval(-tolerance)), high = SQLBind(time.addingTimeInterval(tolerance))
        let beyondTime = descending ? SQLBinaryExpression(timeColumn, .lessThan, low) : SQLBinaryExpression(timeColumn, .greaterThan, high)
        let sameTime = SQLBinaryExpression(
            SQLBinaryExpression(timeColumn, .greaterThanOrEqual, low), .and, SQLBinaryExpression(timeColumn, .lessThanOrEqual, high))
        let beyondID = SQLBinaryExpression(idColumn, descending ? .lessThan : .greaterThan, SQLBind(id))
        return SQLGroupExpression(SQLBinaryExpression(beyondTime, .or, SQLGroupExpression(SQLBinaryExpression(sameTime, .and, beyondID))))
    }
}
