public import PostgresNIO

extension Database {
    /// Runs `statement` on PostgreSQL as a named prepared statement: parsed and planned once per
    /// connection instead of on every run, for a hot statement whose planning costs as much as its
    /// work (see `PlaceTicketStatement`). Its SQL cannot vary, so what varies goes in arrays.
    /// A statement is a transaction of its own: a span of the request's trace named by the statement,
    /// as `transaction` is.
    public func prepared<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        guard case .postgres(let client, _, _) = backend else { throw PreparedStatementsNeedPostgres() }
        return try await traced("SQL \(Statement.name)") {
            var rows: [Statement.Row] = []
            for try await row in try await client.execute(statement) { rows.append(row) }
            return rows
        }
    }
}

/// `Database.prepared` was called on SQLite, which has no named statements shared by connections.
public struct PreparedStatementsNeedPostgres: Error {}
