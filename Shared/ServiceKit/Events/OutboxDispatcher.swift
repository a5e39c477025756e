public import Configuration
public import Contracts
import Foundation
public import Logging
import Metrics
public import ServiceLifecycle

/// Delivers a batch of events to one subscriber's `/internal/events`; throws when it was not
/// accepted. `EventsClient` in ServiceClients is the HTTP implementation.
public protocol EventTransport: Sendable {
    func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws
}

/// Sends every committed outbox event to each subscriber, oldest first, so events of one
/// aggregate arrive in the order they happened. A subscriber that is down is retried with
/// exponential backoff and resumes where it stopped: its position is stored with the outbox.
/// Delivery is at least once; subscribers drop repeats with `Inbox`.
///
/// A commit on this instance that wrote events wakes it at once (`Database.outboxCommitted`); the
/// poll finds what other instances committed. Waking on commit instead of polling every 200 ms
/// took an idle `huddle` on PostgreSQL from 264 outbox statements a second to 54 (all its
/// statements from 292 to 93), and events of this instance no longer wait for the next poll. It is
/// not NOTIFY: PostgreSQL serializes the commits of notifying transactions under one lock, which
/// would bring back the wait among writers that `Outbox.next` took away.
public struct OutboxDispatcher: Service {
    public struct Settings: Sendable {
        public var subscribers: [ServiceModule]
        /// How often to look for events this instance was not told of (other instances' commits).
        public var pollInterval: Duration
        public var firstRetry: Duration
        public var maxRetry: Duration
        public var batchSize: Int
        /// How long after a batch the next waits, to take together the events committed meanwhile.
        public var gather: Duration
        /// The module whose outbox this is, named on the spans that send its events.
        public var publisher: ServiceModule?

        public init(
            subscribers: [ServiceModule], pollInterval: Duration = .seconds(1), firstRetry: Duration = .milliseconds(100),
            maxRetry: Duration = .seconds(30), batchSize: Int = 100, gather: Duration = .milliseconds(20)
        ) {
            self.subscribers = subscribers
            self.pollInterval = pollInterval
            self.firstRetry = firstRetry
            self.maxRetry = maxRetry
            self.batchSize = batchSize
            self.gather = gather
        }
    }

    let database: Database
    let transport: any EventTransport
    let settings: Settings
    let logger: Logger
    let outbox = Outbox()
    private let metrics: [ServiceModule: OutboxMetrics]

    public init(database: Database, transport: any EventTransport, settings: Settings, logger: Logger) {
        self.database = database
        self.transport = transport
        self.settings = settings
        self.logger = logger
        metrics = Dictionary(
            uniqueKeysWithValues: settings.subscribers.map { ($0, OutboxMetrics(publisher: settings.publisher, subscriber: $0)) })
    }

    public func run() async throws {
        // A service that returns early would stop its whole group, so with no one to deliver to it just waits.
        guard !settings.subscribers.isEmpty else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            guard (try? await database.waitUntilMigrated()) != nil else { return }
            await withDiscardingTaskGroup { group in
                for subscriber in settings.subscribers {
                    group.addTask { await deliverForever(to: subscriber) }
                }
                group.addTask { await pruneForever() }
            }
        }
    }

    private func deliverForever(to subscriber: ServiceModule) async {
        var backoff = RetryBackoff(first: settings.firstRetry, max: settings.maxRetry)
        let committed = database.outboxCommitted
        while !Task.isCancelled {
            // Read before looking, so that a commit while this batch goes out is not slept through.
            let seen = committed.rings
            do {
                let sent = try await deliverNextBatch(to: subscriber)
                let sentAt = ContinuousClock.now
                backoff.reset()
                if sent.count == settings.batchSize { continue }
                if sent.heldBack {
                    // Held back by a transaction that began before theirs (`Outbox.next`), which rings
                    // nothing when it ends if it wrote no events; such a transaction is usually within
                    // milliseconds of its end.
                    try await Task.sleep(for: min(settings.pollInterval, .milliseconds(50)))
                } else {
                    await committed.wait(upTo: settings.pollInterval, since: seen)
                }
                // Commits one after another would each wake it for a batch of one or two, each a call
                // to the subscriber and a transaction (twenty in a row took eleven calls): the batch
                // after one waits out `gather` and takes what committed meanwhile. An event after a
                // quiet spell goes at once.
                if sent.count > 0 { try await Task.sleep(until: sentAt + settings.gather, clock: .continuous) }
            } catch {
                // A call cut short by shutdown is not a failed delivery; the batch goes again at next start.
                if Task.isCancelled { return }
                let wait = backoff.next()
                logger.warning("events to \(subscriber.rawValue) not delivered, retrying in \(wait): \(error)")
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// Events every subscriber has received are kept for a day (to look into), then deleted.
    private func pruneForever() async {
        while !Task.isCancelled {
            // Waiting first also leaves start-up (and its migrations) alone.
            do { try await Task.sleep(for: .seconds(3600)) } catch { return }
            do {
                let subscribers = settings.subscribers.map(\.rawValue)
                try await database.transaction { sql in
                    try await outbox.prune(deliveredTo: subscribers, before: Date().addingTimeInterval(-24 * 3600), on: sql)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("outbox pruning failed: \(error)")
            }
        }
    }

    /// Sends the next batch and records it as delivered; answers how many events it sent, and whether
    /// committed events were held back behind a transaction still open.
    func deliverNextBatch(to subscriber: ServiceModule) async throws -> (count: Int, heldBack: Bool) {
        let name = subscriber.rawValue
        let next = try await database.read { sql in
            try await outbox.next(after: try await outbox.deliveredPosition(of: name, on: sql), limit: settings.batchSize, on: sql)
        }
        let batch = next.events
        let metrics = metrics[subscriber] ?? OutboxMetrics(publisher: settings.publisher, subscriber: subscriber)
        metrics.lag.record(next.oldestWaiting.map { max(0, Date().timeIntervalSince($0)) } ?? 0)
        guard let last = batch.last?.0 else { return (0, next.heldBack) }
        try await EventTracing.dispatching(batch.map(\.1), from: settings.publisher, to: subscriber) { events in
            try await transport.deliver(events, to: subscriber)
        }
        try await database.transaction { sql in try await outbox.recordDelivered(to: name, through: last, on: sql) }
        metrics.delivered.increment(by: batch.count)
        return (batch.count, next.heldBack)
    }
}

/// What an operator watches of one outbox and subscriber: `outbox_lag_seconds`, the age of the
/// oldest event the subscriber has not yet taken (0 when it is up to date; it grows while the
/// subscriber is down, or while a transaction left open holds events back), and `outbox_events_delivered_total`.
struct OutboxMetrics {
    let lag: Gauge
    let delivered: Counter

    init(publisher: ServiceModule?, subscriber: ServiceModule) {
        let dimensions = [("publisher", publisher?.rawValue ?? ""), ("subscriber", subscriber.rawValue)]
        lag = Gauge(label: "outbox_lag_seconds", dimensions: dimensions)
        delivered = Counter(label: "outbox_events_delivered_total", dimensions: dimensions)
    }
}

/// Doubling waits between failed attempts, capped, with jitter so retries do not march in step.
struct RetryBackoff {
    let first: Duration
    let max: Duration
    private var current: Duration

    init(first: Duration, max: Duration) {
        self.first = first
        self.max = max
        self.current = first
    }

    mutating func next() -> Duration {
        defer { current = min(current * 2, max) }
        return current * Double.random(in: 0.8...1.2)
    }

    mutating func reset() { current = first }
}

extension OutboxDispatcher.Settings {
    /// Keys: `<module>.events.subscribers` (modules, comma-separated; default none),
    /// `<module>.events.poll.ms` (default 1000), `<module>.events.retry.max.ms` (default 30000),
    /// `<module>.events.gather.ms` (default 20).
    public init(reader: ConfigReader, module: ServiceModule) throws {
        let prefix = "\(module.rawValue).events"
        self.init(
            subscribers: try ServiceModule.parseList(reader.list("\(prefix).subscribers").joined(separator: ",")),
            pollInterval: reader.milliseconds("\(prefix).poll.ms", default: 1000),
            maxRetry: reader.milliseconds("\(prefix).retry.max.ms", default: 30_000),
            gather: reader.milliseconds("\(prefix).gather.ms", default: 20))
        publisher = module
    }
}
