import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// A leased PostgreSQL connection's statements, which fail with `PostgresConnectionClosed` once the
/// connection has closed instead of waiting for an answer that cannot come.
///
/// Why: PostgresNIO (1.33) hands a statement to its channel without a promise for the write. Once the
/// channel has closed and its handlers are gone, the write fails where nothing hears it, and the
/// statement's answer never comes (vapor/postgres-nio#487 fixed this; #501 reverted the fix). The pool
/// closes leased connections too when its `run` is cancelled, so a worker that was between two
/// statements of a read or a transaction when its module was stopped waited for ever: the outbox
/// dispatchers and auth's export worker that stops had to leave behind (`RunningServices`), caught with
/// 24 test stacks stopping at once. A server that drops a connection (a restart, a failover) did the
/// same to the next statement on it.
///
/// It also runs the statements itself, so that their rows are read by `PostgresRowReader`.
struct PostgresConnectionStatements: SQLDatabase {
    let base: any SQLDatabase
    let connection: PostgresConnection
    let closings: ConnectionClosings

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }
    var isClosed: Bool { connection.isClosed }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let answer = eventLoop.makePromise(of: Void.self)
        guard let ticket = closings.expect(answer, on: connection) else {
            answer.fail(PostgresConnectionClosed())
            return answer.futureResult
        }
        run(query, onRow).whenComplete { [closings, connection] result in
            closings.answered(ticket, on: connection)
            answer.completeWith(result)
        }
        return answer.futureResult
    }

    /// Runs `query` on the connection with its rows read by `PostgresRowReader`, as PostgresKit runs it
    /// (the same SQL, binds and log line) but prepared once per connection when the pool keeps it
    /// (`PreparedStatements`); a query with a bind only PostgresKit can encode runs its way.
    private func run(_ query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let (sql, binds) = StatementText.of(query, for: self)
        var bindings = PostgresBindings(capacity: binds.count)
        var types: [PostgresDataType] = []
        do {
            for bind in binds {
                guard let type = try bindings.appendEncodedByPostgresNIO(bind) else { return base.execute(sql: query, onRow) }
                types.append(type)
            }
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        logStatement(sql, binds)
        guard let prepared = closings.prepared(sql, types: types, on: connection) else {
            return connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: connection.logger) { row in
                onRow(PostgresRowReader(row))
            }.map { _ in }
        }
        return eventLoop.makeFutureWithTask { [connection, closings, bindings, types] in
            do {
                try await NamedStatement.$running.withValue(NamedStatement.Text(name: prepared.name, sql: sql, types: types)) {
                    for try await row in try await connection.execute(NamedStatement(bindings: bindings), logger: connection.logger) {
                        onRow(PostgresRowReader(row))
                    }
                }
                if !prepared.isPrepared { closings.ran(prepared, on: connection) }
            } catch {
                if !prepared.isPrepared { closings.failedToPrepare(prepared, on: connection) }
                throw error
            }
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// The statements awaiting an answer on each open connection of one pool; when a connection closes,
/// they fail. One close callback per connection, and an entry only while the connection is open.
final class ConnectionClosings: Sendable {
    private struct Open {
        var awaiting: [UInt64: EventLoopPromise<Void>] = [:]
        /// The statements prepared on it (`PreparedStatements`' numbers).
        var prepared: Set<Int> = []
        /// How many times each statement whose preparation failed on it was given a new name.
        var renamed: [Int: Int] = [:]
    }
    private struct State {
        var open: [ObjectIdentifier: Open] = [:]
        var nextTicket: UInt64 = 0
    }
    private let state = NIOLockedValueBox(State())
    /// The statements kept prepared on the pool's connections; nil when none are.
    private let prepared: PreparedStatements?

    init(preparing: Bool) { prepared = preparing ? PreparedStatements() : nil }

    /// A statement kept prepared: its name on a connection, and whether it is prepared there already.
    struct Prepared {
        let number: Int
        let name: String
        let isPrepared: Bool
    }

    /// How `sql` runs prepared on `connection`, or nil to run it unnamed.
    func prepared(_ sql: String, types: [PostgresDataType], on connection: PostgresConnection) -> Prepared? {
        guard let number = prepared?.number(of: sql, types: types) else { return nil }
        return state.withLockedValue { state in
            state.open[ObjectIdentifier(connection)].map { open in
                Prepared(
                    number: number, name: "huddle_\(number)_\(open.renamed[number] ?? 0)", isPrepared: open.prepared.contains(number))
            }
        }
    }

    /// `statement` ran on `connection`, so it is prepared there.
    func ran(_ statement: Prepared, on connection: PostgresConnection) {
        state.withLockedValue { _ = $0.open[ObjectIdentifier(connection)]?.prepared.insert(statement.number) }
    }

    /// `statement` failed on `connection` before it was prepared there: PostgresNIO would answer its name
    /// with that failure from now on, so it takes a new one.
    func failedToPrepare(_ statement: Prepared, on connection: PostgresConnection) {
        state.withLockedValue { $0.open[ObjectIdentifier(connection)]?.renamed[statement.number, default: 0] += 1 }
    }

    /// `connection`'s statements, watched.
    func statements(on connection: PostgresConnection) -> any SQLDatabase {
        let key = ObjectIdentifier(connection)
        let isNew = state.withLockedValue { state in
            guard state.open[key] == nil else { return false }
            state.open[key] = Open()
            return true
        }
        if isNew { connection.closeFuture.whenComplete { [self] _ in closed(key) } }
        return PostgresConnectionStatements(base: connection.sql(), connection: connection, closings: self)
    }

    /// A ticket for `answer`, or nil when the connection has closed already.
    func expect(_ answer: EventLoopPromise<Void>, on connection: PostgresConnection) -> UInt64? {
        state.withLockedValue { state in
            guard !connection.isClosed, state.open[ObjectIdentifier(connection)] != nil else { return nil }
            state.nextTicket += 1
            state.open[ObjectIdentifier(connection)]?.awaiting[state.nextTicket] = answer
            return state.nextTicket
        }
    }

    func answered(_ ticket: UInt64, on connection: PostgresConnection) {
        state.withLockedValue { _ = $0.open[ObjectIdentifier(connection)]?.awaiting.removeValue(forKey: ticket) }
    }

    private func closed(_ key: ObjectIdentifier) {
        let awaiting = state.withLockedValue { $0.open.removeValue(forKey: key)?.awaiting.values }
        for answer in awaiting.map(Array.init) ?? [] { answer.fail(PostgresConnectionClosed()) }
    }
}

/// The connection a statement was to run on closed (the server went away, or the pool shut down).
public struct PostgresConnectionClosed: Error, CustomStringConvertible {
    public var description: String { "the PostgreSQL connection closed before the statement was answered" }
}
