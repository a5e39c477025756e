public import Configuration
public import Contracts
public import Foundation
public import Logging
import Metrics
public import ServerContracts
import ServiceHTTP
public import ServiceLifecycle

/// Delivers a batch of events to one subscriber's `/internal/events`; throws when it was not
/// accepted. `EventsClient` in ServiceClients is the HTTP implementation.
public protocol EventTransport: Sendable {
    func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws
}

/// Sends every committed outbox event to each subscriber, oldest first within each partition of
/// the stream (`OutboxPartition`, by aggregate), so events of one aggregate arrive in the order they
/// happened. Each partition of each subscriber has one sender at a time however many instances run:
/// the instance holding its lease (`FeedLease`, renewed every few seconds, taken over within
/// `FeedLease.takeover` of its holder dying, released at shutdown). A subscriber that is down is
/// retried with exponential backoff and resumes where it stopped: its cursor is stored with the
/// outbox and only moves forward; a call that failed goes again with half the events (`BatchSize`).
/// One that answers and refuses a batch `maxAttempts` times has the events of that batch sent one
/// at a time, and the one it refuses `maxAttempts` times is parked (`outbox_dead_letters`, logged,
/// `outbox_dead_letters` gauge) while the stream goes on.
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
        /// The most events a call to the subscriber takes (and about `Outbox.batchBytes` at most): a
        /// backlog goes in fewer, larger calls, each one transaction at the subscriber.
        public var batchSize: Int
        /// How long after a batch the next waits, to take together the events committed meanwhile.
        public var gather: Duration
        /// The module whose outbox this is, named on the spans that send its events and on its leases.
        public var publisher: ServiceModule?
        /// How many parts each subscriber's stream is sent in, each by its own sender.
        public var partitions: Int
        /// How many times a subscriber may refuse a batch, and then each of its events alone, before
        /// the event it refuses is parked.
        public var maxAttempts: Int
        /// How long a sender's lease lasts unrenewed: how soon another instance takes over from one that died.
        public var leaseDuration: TimeInterval

        public init(
            subscribers: [ServiceModule], pollInterval: Duration = .seconds(1), firstRetry: Duration = .milliseconds(100),
            maxRetry: Duration = .seconds(30), batchSize: Int = 500, gather: Duration = .milliseconds(20), partitions: Int = 1,
            maxAttempts: Int = 10, leaseDuration: TimeInterval = FeedLease.takeover
        ) {
            self.subscribers = subscribers
            self.pollInterval = pollInterval
            self.firstRetry = firstRetry
            self.maxRetry = maxRetry
            self.batchSize = batchSize
            self.gather = gather
            self.partitions = max(1, partitions)
            self.maxAttempts = max(1, maxAttempts)
            self.leaseDuration = leaseDuration
        }
    }

    /// One partition of one subscriber's stream: what one sender sends.
    struct Stream: Hashable, Sendable {
        var subscriber: ServiceModule
        var partition: OutboxPartition
    }

    let database: Database
    let transport: any EventTransport
    let settings: Settings
    let logger: Logger
    let outbox: Outbox
    let deadLetters: DeadLetterStore
    private let metrics: [ServiceModule: OutboxMetrics]
    private let leases: [Stream: FeedLease]

    public init(database: Database, transport: any EventTransport, settings: Settings, logger: Logger) {
        self.database = database
        outbox = Outbox(now: database.now)
        deadLetters = DeadLetterStore(outbox: outbox)
        self.transport = transport
        self.settings = settings
        self.logger = logger
        metrics = Dictionary(
            uniqueKeysWithValues: settings.subscribers.map { ($0, OutboxMetrics(publisher: settings.publisher, subscriber: $0)) })
        let streams = settings.subscribers.flatMap { subscriber in
            OutboxPartition.all(settings.partitions).map { Stream(subscriber: subscriber, partition: $0) }
        }
        let publisher = settings.publisher?.rawValue ?? "outbox"
        leases = Dictionary(
            uniqueKeysWithValues: streams.map {
                let name = "events \(publisher) to \($0.subscriber.rawValue) \($0.partition.index) of \($0.partition.count)"
                return ($0, FeedLease(database: database, name: name, duration: settings.leaseDuration))
            })
    }

    public func run() async throws {
        // A service that returns early would stop its whole group, so with no one to deliver to it just waits.
        guard !settings.subscribers.isEmpty else { return try await gracefulShutdown() }
        await cancelWhenGracefulShutdown {
            guard (try? await database.waitUntilMigrated()) != nil else { return }
            await showParked()
            await withDiscardingTaskGroup { group in
                for stream in leases.keys {
                    group.addTask { await deliverForever(stream) }
                }
                group.addTask { await pruneForever() }
            }
        }
        // The services after this one (the store among them) are still up: another instance takes
        // over at once rather than after the lease lapses. In a task of its own, which a cancelled
        // run does not cancel.
        let held = Array(leases.values)
        await Task { for lease in held { try? await lease.release() } }.value
    }

    private func deliverForever(_ stream: Stream) async {
        var backoff = RetryBackoff(first: settings.firstRetry, max: settings.maxRetry)
        var refusals = Refusals(maxAttempts: settings.maxAttempts)
        var size = BatchSize(settings.batchSize)
        var renewDue = ContinuousClock.now
        let committed = database.outboxCommitted
        while !Task.isCancelled {
            // Read before looking, so that a commit while this batch goes out is not slept through.
            let seen = committed.rings
            do {
                if ContinuousClock.now >= renewDue {
                    guard try await leases[stream]?.acquire(at: database.now()) ?? true else {
                        try await Task.sleep(for: FeedLease.heartbeat)
                        continue
                    }
                    renewDue = .now + FeedLease.heartbeat
                }
                let sent = try await deliverNextBatch(stream, limit: refusals.batchSize(size.current))
                refusals.delivered(through: sent.last)
                size.delivered(full: sent.full)
                let sentAt = ContinuousClock.now
                backoff.reset()
                if sent.full || refusals.isolating { continue }
                if sent.heldBack {
                    // Held back by a transaction that began before theirs (`Outbox.next`), which rings
                    // nothing when it ends if it wrote no events; such a transaction is usually within
                    // milliseconds of its end.
                    try await Task.sleep(for: min(settings.pollInterval, .milliseconds(50)))
                } else {
                    await committed.wait(upTo: min(settings.pollInterval, renewDue - .now), since: seen)
                }
                // Commits one after another would each wake it for a batch of one or two, each a call
                // to the subscriber and a transaction (twenty in a row took eleven calls): the batch
                // after one waits out `gather` and takes what committed meanwhile. An event after a
                // quiet spell goes at once.
                if sent.count > 0 { try await Task.sleep(until: sentAt + settings.gather, clock: .continuous) }
            } catch let refused as BatchRefused {
                switch refusals.refused(refused.events.count, through: refused.events.last?.0) {
                case .retry:
                    logger.warning("\(stream.subscriber.rawValue) refused \(refused.events.count) events (\(refused.refusal)), retrying")
                    try? await Task.sleep(for: backoff.next())
                case .isolate:
                    logger.warning(
                        "\(stream.subscriber.rawValue) refused a batch \(settings.maxAttempts) times: sending its events one at a time")
                case .park:
                    guard let (position, event) = refused.events.first else { continue }
                    do { try await park(event, at: position, in: stream, error: refused.refusal.description) } catch {
                        logger.warning("could not park event \(event.id): \(error)")
                        try? await Task.sleep(for: backoff.next())
                    }
                }
            } catch {
                // A call cut short by shutdown is not a failed delivery; the batch goes again at next start.
                if Task.isCancelled { return }
                let wait = backoff.next()
                size.failed()
                logger.warning(
                    "events to \(stream.subscriber.rawValue) not delivered, retrying in \(wait), \(size.current) at most: \(error)")
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
                    try await outbox.prune(deliveredTo: subscribers, before: database.now().addingTimeInterval(-24 * 3600), on: sql)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("outbox pruning failed: \(error)")
            }
        }
    }

    /// Sends the whole stream's next batch to `subscriber` and records it as delivered (see the other).
    func deliverNextBatch(to subscriber: ServiceModule) async throws -> (count: Int, heldBack: Bool) {
        let sent = try await deliverNextBatch(Stream(subscriber: subscriber, partition: .whole), limit: settings.batchSize)
        return (sent.count, sent.heldBack)
    }

    /// Sends `stream`'s next batch of at most `limit` events and records it as delivered; answers how
    /// many events it sent and the last one's position, whether committed events were held back
    /// behind a transaction still open, and whether more may be ready (the batch was full). Throws
    /// `BatchRefused` when the subscriber refused the batch.
    func deliverNextBatch(_ stream: Stream, limit: Int) async throws -> (count: Int, last: OutboxPosition?, heldBack: Bool, full: Bool) {
        let name = stream.subscriber.rawValue
        let next = try await outbox.nextBatch(for: name, in: stream.partition, limit: limit, from: database)
        let batch = next.events
        let metrics = metrics[stream.subscriber] ?? OutboxMetrics(publisher: settings.publisher, subscriber: stream.subscriber)
        metrics.lag.record(next.oldestWaiting.map { max(0, database.now().timeIntervalSince($0)) } ?? 0)
        guard let last = batch.last?.0 else { return (0, nil, next.heldBack, false) }
        do {
            try await EventTracing.dispatching(batch.map(\.1), from: settings.publisher, to: stream.subscriber) { events in
                try await transport.deliver(events, to: stream.subscriber)
            }
        } catch let refusal as EventsRefused {
            throw BatchRefused(events: batch, refusal: refusal)
        }
        try await database.transaction { sql in
            try await outbox.recordDelivered(to: name, in: stream.partition, through: last, on: sql)
        }
        metrics.delivered.increment(by: batch.count)
        return (batch.count, last, next.heldBack, next.full)
    }

    /// Sets `event` aside for `stream`'s subscriber, which refused it alone `maxAttempts` times, and
    /// goes on past it.
    func park(_ event: EventEnvelope, at position: OutboxPosition, in stream: Stream, error: String) async throws {
        try await database.transaction { sql in
            try await deadLetters.park(
                event, at: position, for: stream.subscriber.rawValue, in: stream.partition, error: error, attempts: settings.maxAttempts,
                on: sql)
        }
        let refused = "\(stream.subscriber.rawValue) refused \(event.type) \(event.id) (aggregate \(event.aggregateID))"
        logger.error("event parked: \(refused) \(settings.maxAttempts) times, last with \(error); the stream goes on without it")
        await showParked()
    }

    /// Sends the parked event `id` again to each subscriber it was parked for; one that takes it
    /// leaves the dead letters. Throws 404 when nothing is parked under `id`, a conflict naming the
    /// error when a subscriber refused it again, unavailable when one could not be reached.
    public func replay(_ id: EventID) async throws {
        let parked = try await database.read { sql in try await deadLetters.parked(id, on: sql) }
        guard !parked.isEmpty else { throw CommonError.notFound("No parked event with id \(id).") }
        defer { Task { await showParked() } }
        for letter in parked {
            do {
                try await transport.deliver([letter.event], to: letter.subscriber)
            } catch let refusal as EventsRefused {
                try await database.transaction { sql in
                    try await deadLetters.refusedAgain(id, by: letter.subscriber, error: refusal.description, on: sql)
                }
                throw CommonError.http(status: 409, message: "\(letter.subscriber.rawValue) refused it again: \(refusal)")
            }
            try await database.transaction { sql in try await deadLetters.remove(id, for: letter.subscriber, on: sql) }
            logger.info("parked event \(id) replayed to \(letter.subscriber.rawValue)")
        }
    }

    /// The parked events, oldest first.
    public func parked() async throws -> DeadLetters {
        DeadLetters(items: try await database.read { sql in try await deadLetters.parked(on: sql) })
    }

    /// Sets each subscriber's `outbox_dead_letters` gauge from the store.
    private func showParked() async {
        guard let counts = try? await database.read({ sql in try await deadLetters.counts(on: sql) }) else { return }
        for (subscriber, metrics) in metrics { metrics.parked.record(counts[subscriber.rawValue] ?? 0) }
    }
}

/// A subscriber answered and refused `events` (`EventsRefused`).
struct BatchRefused: Error {
    var events: [(OutboxPosition, EventEnvelope)]
    var refusal: EventsRefused
}

/// How one sender answers its subscriber's refusals: retry a refused batch up to `maxAttempts`
/// times, then send the events up to its last one at a time, so that only the event refused alone
/// `maxAttempts` times is parked and the others go. Pure, so its rule is tested on its own.
struct Refusals {
    let maxAttempts: Int
    private(set) var attempts = 0
    /// While set, events go one at a time until this position is delivered.
    private(set) var isolatingThrough: OutboxPosition?

    init(maxAttempts: Int) { self.maxAttempts = maxAttempts }

    enum Next: Equatable {
        /// Send the same batch again after the backoff.
        case retry
        /// Send its events one at a time, at once.
        case isolate
        /// Park the first event, refused alone too often, and go on.
        case park
    }

    var isolating: Bool { isolatingThrough != nil }

    func batchSize(_ normal: Int) -> Int { isolating ? 1 : normal }

    /// A batch went through up to `position` (nil: there was nothing to send).
    mutating func delivered(through position: OutboxPosition?) {
        guard let position else { return }
        attempts = 0
        if let through = isolatingThrough, position >= through { isolatingThrough = nil }
    }

    /// A batch of `count` events, the last at `last`, was refused.
    mutating func refused(_ count: Int, through last: OutboxPosition?) -> Next {
        attempts += 1
        guard attempts >= maxAttempts else { return .retry }
        attempts = 0
        guard count == 1 else {
            isolatingThrough = last
            return .isolate
        }
        if let through = isolatingThrough, let last, last >= through { isolatingThrough = nil }
        return .park
    }
}

/// What an operator watches of one outbox and subscriber: `outbox_lag_seconds`, the age of the
/// oldest event the subscriber has not yet taken (0 when it is up to date; it grows while the
/// subscriber is down, or while a transaction left open holds events back), and `outbox_events_delivered_total`.
struct OutboxMetrics {
    let lag: Gauge
    let delivered: Counter
    /// `outbox_dead_letters`: how many events the subscriber refused are parked.
    let parked: Gauge

    init(publisher: ServiceModule?, subscriber: ServiceModule) {
        let dimensions = [("publisher", publisher?.rawValue ?? ""), ("subscriber", subscriber.rawValue)]
        lag = Gauge(label: "outbox_lag_seconds", dimensions: dimensions)
        delivered = Counter(label: "outbox_events_delivered_total", dimensions: dimensions)
        parked = Gauge(label: "outbox_dead_letters", dimensions: dimensions)
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
    /// `<module>.events.gather.ms` (default 20), `<module>.events.batch` (default 500),
    /// `<module>.events.partitions` (default 1),
    /// `<module>.events.attempts` (default 10: about two minutes of refusals at the default backoff).
    public init(reader: ConfigReader, module: ServiceModule) throws {
        let prefix = "\(module.rawValue).events"
        self.init(
            subscribers: try ServiceModule.parseList(reader.list("\(prefix).subscribers").joined(separator: ",")),
            pollInterval: reader.milliseconds("\(prefix).poll.ms", default: 1000),
            maxRetry: reader.milliseconds("\(prefix).retry.max.ms", default: 30_000),
            batchSize: max(1, reader.integer("\(prefix).batch", default: 500)),
            gather: reader.milliseconds("\(prefix).gather.ms", default: 20),
            partitions: reader.integer("\(prefix).partitions", default: 1),
            maxAttempts: reader.integer("\(prefix).attempts", default: 10))
        publisher = module
    }
}
