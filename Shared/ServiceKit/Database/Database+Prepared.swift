public import PostgresNIO

extension Database {
    /// Runs `statement` on PostgreSQL as a named prepared statement: parsed and planned once per
    /// connection instead of on every run, for a hot statement whose planning costs as much as its
    /// work (see `PlaceTicketStatement`). Its SQL cannot vary, so what varies goes in arrays.
    public func prepared<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        guard case .postgres(let client) = backend else { throw PreparedStatementsNeedPostgres() }
        var rows: [Statement.Row] = []
        for try await row in try await client.execute(statement) { rows.append(row) }
        return rows
    }
}

/// `Database.prepared` was called on SQLite, which has no named statements shared by connections.
public struct PreparedStatementsNeedPostgres: Error {}
