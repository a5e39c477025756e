import NIOConcurrencyHelpers
import PostgresNIO

/// The statements a module's stores run, each kept prepared on every connection that ran it, so
/// PostgreSQL parses and plans it once per connection instead of on every run.
///
/// Why: an unnamed statement is parsed and planned afresh each time. In `huddle-bench chatpush` on
/// PostgreSQL (`pg_stat_statements` with `track_planning`), the modules' statements spent 3.4 s being
/// planned and 2.4 s running: a chat message's ten statements planned for longer than they ran, on
/// the cores the sends wait for. A prepared statement is planned for its first runs with its values
/// and then, when that plans no worse, once for all (PostgreSQL's `plan_cache_mode` left at `auto`).
///
/// Kept: a `SELECT`, `INSERT`, `UPDATE`, `DELETE` or `WITH` of at most 64 values and 8 KB, up to
/// 1,000 different ones a module, unless it says it is `plannedEachRun`; the rest (a migration's DDL,
/// a long list of rows or values) runs unnamed as before. PostgresNIO remembers a failed preparation
/// for the connection's life, so a statement whose preparation failed on a connection (first met in a
/// transaction already aborted, say) takes a new name there and is prepared again next time
/// (`ConnectionClosings`); a statement that failed once prepared keeps its name.
final class PreparedStatements: Sendable {
    static let maximumValues = 64
    static let maximumLength = 8192
    static let maximumStatements = 1000

    /// Written into a statement whose best plan depends so much on its values that one plan for all
    /// runs reads the wrong rows, so it is planned with them every time. The outbox's next batch is
    /// one: planned once for any position it read the whole backlog after some position and sorted it,
    /// 12 ms a batch where planned with its values it walks the index for the limit (games → search
    /// fell from 8,149–9,091 to 5,007–5,664 events a second with it prepared).
    static let plannedEachRun = "/* planned each run */"

    private struct Key: Hashable {
        let sql: String
        let types: [PostgresDataType]
    }

    private let numbers = NIOLockedValueBox([Key: Int]())

    /// The number `sql` with values of `types` goes by in this module, or nil when it is not kept.
    func number(of sql: String, types: [PostgresDataType]) -> Int? {
        guard types.count <= Self.maximumValues, sql.utf8.count <= Self.maximumLength, Self.isKept(sql),
            !sql.contains(Self.plannedEachRun)
        else { return nil }
        let key = Key(sql: sql, types: types)
        return numbers.withLockedValue { numbers -> Int? in
            if let number = numbers[key] { return number }
            guard numbers.count < Self.maximumStatements else { return nil }
            numbers[key] = numbers.count + 1
            return numbers.count
        }
    }

    private static func isKept(_ sql: String) -> Bool {
        let verb = sql.prefix(while: { !$0.isWhitespace && $0 != "(" }).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(verb)
    }
}

/// A statement run by name. PostgresNIO takes a prepared statement's name, text and value types from
/// its type rather than from the value, so the running statement's are handed to it through a
/// task-local for the call.
struct NamedStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
    }

    @TaskLocal static var running: Text?

    static var name: String { running?.name ?? "" }
    static var sql: String { running?.sql ?? "" }
    static var bindingDataTypes: [PostgresDataType] { running?.types ?? [] }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
