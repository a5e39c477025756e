public import Foundation
public import Logging
import Metrics
public import SQLKit
public import ServiceLifecycle

/// How long the oldest item a queue owes has waited — 0 when it owes none — measured every `interval`
/// as the gauge `label`, for the alerts that say a queue stopped moving before its users do
/// (deploy/kubernetes/components/monitoring/alerts.yaml): mail that no relay takes, pushes that no
/// platform accepts. `oldest` reads the queue: when its oldest waiting item started waiting.
public struct QueueAgeWatch: Service {
    let label: String
    let database: Database
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger
    let oldest: @Sendable (any SQLDatabase, Date) async throws -> Date?

    public init(
        _ label: String, database: Database, interval: Duration = .seconds(30), now: @escaping @Sendable () -> Date, logger: Logger,
        oldest: @escaping @Sendable (any SQLDatabase, Date) async throws -> Date?
    ) {
        self.label = label
        self.database = database
        self.interval = interval
        self.now = now
        self.logger = logger
        self.oldest = oldest
    }

    public func run() async throws {
        let gauge = Gauge(label: label)
        await database.repeatUntilShutdown {
            do {
                let at = now()
                let started = try await database.read { sql in try await oldest(sql, at) }
                gauge.record(Self.age(of: started, at: at))
            } catch {
                if !Task.isCancelled { logger.warning("\(label) not measured: \(error)") }
            }
            return interval
        }
    }

    /// Seconds since `started`; 0 for none, or for one the clock says is yet to come.
    public static func age(of started: Date?, at now: Date) -> Double {
        started.map { max(0, now.timeIntervalSince($0)) } ?? 0
    }
}
