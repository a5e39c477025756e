import Logging
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The SQLite connection's statements, run as SQLiteKit runs them (the same binds, rows and log line),
/// with their text made by `StatementText`.
struct SQLiteStatements: SQLDatabase {
    let connection: SQLiteConnection
    let base: any SQLDatabase

    init(_ connection: SQLiteConnection) {
        self.connection = connection
        self.base = connection.sql()
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let encoded: (String, [SQLiteData])
        do {
            encoded = try statement(query)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return connection.query(encoded.0, encoded.1) { row in onRow(row.sql()) }
    }

    /// As SQLiteKit's: through SQLiteNIO's async query, which reads the rows on SQLite's thread and
    /// comes back once. Its futures-based query hands each row to the event loop and then the result,
    /// each a wake-up of the loop (2.5 more `write`s, `read`s and `epoll_wait`s a request of auth's
    /// `/v1/users/me`, strace, and a tenth of its throughput).
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = try statement(query)
        try await connection.query(sql, binds) { row in onRow(row.sql()) }
    }

    /// Runs BEGIN, COMMIT or ROLLBACK whether or not the task is cancelled. SQLiteNIO's async query
    /// skips work queued by a cancelled task (`NIOThreadPool.runIfActive`), so a transaction whose task
    /// was cancelled would keep its connection inside BEGIN for good, and every later BEGIN on it fails;
    /// the futures-based query always runs. (PostgresNIO runs every query it was given.)
    func control(_ statement: String) async throws {
        logStatement(statement, [])
        try await connection.query(statement, [], logger: logger) { _ in }.get()
    }

    /// The statement's text and its binds as SQLite takes them, logged as SQLiteKit logs them.
    private func statement(_ query: any SQLExpression) throws -> (String, [SQLiteData]) {
        let (sql, binds) = StatementText.of(query, for: self)
        logStatement(sql, binds)
        let encoder = SQLiteDataEncoder()
        return (sql, try binds.map { try encoder.encode($0) })
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}
