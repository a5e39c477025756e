public import Configuration
public import Contracts
import Foundation
public import Logging
import SQLKit
import ServiceHTTP
public import ServiceLifecycle

/// Rows a module keeps only for a while: those of `table` whose `column` is older than the age
/// configured as `<module>.retention.<name>.days` (`defaultDays` when unset; 0 keeps them for ever),
/// and that meet `condition` when one is given (SQL over the table's row, which may ask the module's
/// other tables; written in the module's code, never from input).
public struct RetentionRule: Sendable {
    public var name: String
    public var table: String
    public var column: String
    public var defaultDays: Double
    public var condition: String?

    public init(_ name: String, table: String, column: String, defaultDays: Double, condition: String? = nil) {
        self.name = name
        self.table = table
        self.column = column
        self.defaultDays = defaultDays
        self.condition = condition
    }

    /// Applied events, kept long enough to drop any redelivery: longer than dead letters, which
    /// can be replayed until they go.
    public static let inbox = RetentionRule("inbox", table: "inbox", column: "applied_at", defaultDays: 30)
    /// Answers kept for retries with the same `Idempotency-Key`: a day, then a day's grace.
    public static let idempotencyKeys = RetentionRule("idempotency", table: "idempotency_keys", column: "created_at", defaultDays: 2)
    /// Events a subscriber refused, left for an operator to look into and replay.
    public static let deadLetters = RetentionRule("deadletters", table: "outbox_dead_letters", column: "parked_at", defaultDays: 14)
}

/// Deletes what each rule no longer keeps, every `<module>.retention.interval.ms` (an hour by
/// default), in batches of `<module>.retention.batch` rows (1000), each its own short transaction, so
/// a backlog of months goes without one long lock or one huge transaction. Several instances may
/// prune at once: a row goes once whoever deletes it.
public struct Retention: Service {
    struct Resolved: Sendable {
        let rule: RetentionRule
        let age: TimeInterval
    }

    let database: Database
    let rules: [Resolved]
    let interval: Duration
    let batch: Int
    let logger: Logger

    public init(database: Database, rules: [RetentionRule], reader: ConfigReader, module: ServiceModule, logger: Logger) {
        self.database = database
        self.rules = rules.compactMap { rule in
            let days = reader.double(forKey: ConfigKey("\(module.rawValue).retention.\(rule.name).days"), default: rule.defaultDays)
            return days > 0 ? Resolved(rule: rule, age: days * 86_400) : nil
        }
        interval = reader.milliseconds("\(module.rawValue).retention.interval.ms", default: 3_600_000)
        batch = max(1, reader.integer("\(module.rawValue).retention.batch", default: 1000))
        self.logger = logger
    }

    public func run() async throws {
        guard !rules.isEmpty else { return try await gracefulShutdown() }
        await database.repeatUntilShutdown {
            _ = await prune(at: database.now())
            return interval
        }
    }

    /// Deletes what is due at `now`; answers how many rows went, by rule.
    func prune(at now: Date) async -> [String: Int] {
        var removed: [String: Int] = [:]
        for resolved in rules {
            do {
                removed[resolved.rule.name] = try await prune(resolved, before: now.addingTimeInterval(-resolved.age))
            } catch {
                if Task.isCancelled { break }
                logger.warning("pruning \(resolved.rule.table) failed: \(error)")
            }
        }
        let total = removed.values.reduce(0, +)
        if total > 0 { logger.info("pruned \(total) rows: \(removed.filter { $0.value > 0 })") }
        return removed
    }

    private func prune(_ resolved: Resolved, before cutoff: Date) async throws -> Int {
        var total = 0
        while !Task.isCancelled {
            let deleted = try await database.transaction { sql in
                let row = sql.dialect.name == "postgresql" ? "ctid" : "rowid"
                let rule = resolved.rule
                let condition = rule.condition.map { " AND (\($0))" } ?? ""
                return try await sql.raw(
                    """
                    DELETE FROM \(unsafeRaw: rule.table) WHERE \(unsafeRaw: row) IN (
                        SELECT \(unsafeRaw: row) FROM \(unsafeRaw: rule.table)
                        WHERE \(unsafeRaw: rule.column) < \(bind: cutoff)\(unsafeRaw: condition) LIMIT \(unsafeRaw: String(batch)))
                    RETURNING 1 AS gone
                    """
                ).all().count
            }
            total += deleted
            if deleted < batch { break }
        }
        return total
    }
}
