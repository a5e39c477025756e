import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceStore

/// Measures the open queue every `interval` for Prometheus: `moderation_oldest_open_case_age_seconds`
/// (0 when the queue is empty) and `moderation_overdue_cases` (open longer than the response time),
/// and logs a warning while any case is overdue, so a queue nobody works is seen before App Review does.
struct QueueWatch: Service {
    let cases: Cases
    let interval: Duration
    private let oldestAge = Gauge(label: "moderation_oldest_open_case_age_seconds")
    private let overdue = Gauge(label: "moderation_overdue_cases")

    init(cases: Cases, interval: Duration) {
        self.cases = cases
        self.interval = interval
    }

    func run() async throws {
        await cases.database.repeatUntilShutdown {
            do {
                let (oldest, late) = try await cases.queueAge()
                oldestAge.record(QueueAgeWatch.age(of: oldest, at: cases.now()))
                overdue.record(late)
                if late > 0 { cases.logger.warning("\(late) moderation cases open past the response time") }
            } catch {
                if !(error is CancellationError) { cases.logger.warning("moderation queue not measured: \(error)") }
            }
            return interval
        }
    }
}
