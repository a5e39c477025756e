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
        let (sql, binds) = StatementText.of(query, for: self)
        logStatement(sql, binds)
        let encoder = SQLiteDataEncoder()
        let encoded: [SQLiteData]
        do {
            encoded = try binds.map { try encoder.encode($0) }
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return connection.query(sql, encoded) { row in onRow(row.sql()) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}
