import Logging
import NIOCore
import SQLKit
import Synchronization

/// A statement's SQL text and binds, exactly as SQLKit writes them for the database, made without
/// SQLKit's escaping of each identifier where no identifier needs it.
///
/// Why: SQLKit (3.36) escapes every table and column name it writes by replacing its quote character
/// with two, and in a Linux release build through the standard library's generic
/// `replacing(_:with:)`: **6.9 % of search's CPU** a 50 km search (perf over search through wrk, SQLite,
/// 200,000 games), of 16.1 % for writing its statements in all (6.1 % without it). The stores' identifiers are
/// their own table and column names, none with a quote in it. So a statement is first written with the
/// dialect's quote handed to SQLKit as a plain expression, which it writes on both sides of each
/// identifier without escaping, counting those quotes. When the text holds no other quote character,
/// no identifier held one, and the text is the one SQLKit's escaping gives; otherwise (an identifier
/// with a quote in it, or raw SQL quoting its own) the statement is written again SQLKit's way.
enum StatementText {
    static func of(_ query: any SQLExpression, for database: any SQLDatabase) -> (sql: String, binds: [any Encodable & Sendable]) {
        unescaped(query, for: database) ?? database.serialize(query)
    }

    /// The statement written without escaping identifiers; nil when that is not the text SQLKit's
    /// escaping gives (a quote in the text that was not written around an identifier).
    static func unescaped(_ query: any SQLExpression, for database: any SQLDatabase) -> (sql: String, binds: [any Encodable & Sendable])? {
        guard let quote = (database.dialect.identifierQuote as? SQLRaw)?.sql.utf8, quote.count == 1, let quoteByte = quote.first
        else { return nil }
        let counter = QuoteCounter()
        let dialect = UnescapedIdentifiers(
            base: database.dialect, quote: CountedQuote(text: String(decoding: quote, as: UTF8.self), counter: counter))
        var serializer = SQLSerializer(database: SerializingDatabase(base: database, dialect: dialect))
        query.serialize(to: &serializer)
        let quotesInText = serializer.sql.utf8.reduce(0) { count, byte in byte == quoteByte ? count + 1 : count }
        guard quotesInText == counter.written.load(ordering: .relaxed) else { return nil }
        return (serializer.sql, serializer.binds)
    }
}

extension SQLDatabase {
    /// The log line SQLKit's drivers write for a statement they run, at the database's query log level.
    func logStatement(_ sql: String, _ binds: [any Encodable & Sendable]) {
        guard let queryLogLevel else { return }
        logger.log(
            level: queryLogLevel, "Executing query", metadata: ["sql": .string(sql), "binds": .array(binds.map { .string("\($0)") })])
    }
}

/// The database's dialect, but for its identifier quote, which SQLKit then writes around identifiers
/// as it is.
private struct UnescapedIdentifiers: SQLDialect {
    let base: any SQLDialect
    let identifierQuote: any SQLExpression

    init(base: any SQLDialect, quote: CountedQuote) {
        self.base = base
        self.identifierQuote = quote
    }

    var name: String { base.name }
    var literalStringQuote: any SQLExpression { base.literalStringQuote }
    var supportsAutoIncrement: Bool { base.supportsAutoIncrement }
    var autoIncrementClause: any SQLExpression { base.autoIncrementClause }
    var autoIncrementFunction: (any SQLExpression)? { base.autoIncrementFunction }
    func bindPlaceholder(at position: Int) -> any SQLExpression { base.bindPlaceholder(at: position) }
    func literalBoolean(_ value: Bool) -> any SQLExpression { base.literalBoolean(value) }
    var literalDefault: any SQLExpression { base.literalDefault }
    var supportsIfExists: Bool { base.supportsIfExists }
    var enumSyntax: SQLEnumSyntax { base.enumSyntax }
    var supportsDropBehavior: Bool { base.supportsDropBehavior }
    var supportsReturning: Bool { base.supportsReturning }
    var triggerSyntax: SQLTriggerSyntax { base.triggerSyntax }
    var alterTableSyntax: SQLAlterTableSyntax { base.alterTableSyntax }
    func customDataType(for dataType: SQLDataType) -> (any SQLExpression)? { base.customDataType(for: dataType) }
    func normalizeSQLConstraint(identifier: any SQLExpression) -> any SQLExpression { base.normalizeSQLConstraint(identifier: identifier) }
    var upsertSyntax: SQLUpsertSyntax { base.upsertSyntax }
    var unionFeatures: SQLUnionFeatures { base.unionFeatures }
    var sharedSelectLockExpression: (any SQLExpression)? { base.sharedSelectLockExpression }
    var exclusiveSelectLockExpression: (any SQLExpression)? { base.exclusiveSelectLockExpression }
    func nestedSubpathExpression(in column: any SQLExpression, for path: [String]) -> (any SQLExpression)? {
        base.nestedSubpathExpression(in: column, for: path)
    }
}

/// How many identifier quotes one statement's writing wrote.
private final class QuoteCounter: Sendable {
    let written = Atomic<Int>(0)
}

/// The identifier quote, counted each time it is written.
private struct CountedQuote: SQLExpression {
    let text: String
    let counter: QuoteCounter

    func serialize(to serializer: inout SQLSerializer) {
        counter.written.add(1, ordering: .relaxed)
        serializer.write(text)
    }
}

/// The database, as the serializer sees it, with the counting dialect. Only written to, never run on.
private struct SerializingDatabase: SQLDatabase {
    let base: any SQLDatabase
    let dialect: any SQLDialect

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        base.execute(sql: query, onRow)
    }
}
