import Contracts
public import Foundation
public import SQLKit
public import ServerContracts

/// Writes domain events next to the change they describe. Call `append` inside the transaction
/// that makes the change: the event commits with it or not at all, and the dispatcher delivers it.
public struct Outbox: Sendable {
    /// The module's clock, which stamps each event's `occurredAt` (and so its id).
    let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Appends an event whose payload is `payload` encoded as JSON.
    @discardableResult
    public func append<Payload>(
        _ type: EventType<Payload>, aggregateID: String, payload: Payload, on sql: any SQLDatabase
    ) async throws -> EventEnvelope {
        let event = try type.event(payload, aggregateID: aggregateID, occurredAt: now())
        try await append(event, on: sql)
        return event
    }

    /// The event keeps the current span's trace context (`EventTracing`). Writers take no lock:
    /// the dispatcher holds back what a transaction still open may precede (`next(after:)`). Its
    /// commit wakes this instance's dispatcher (`Database.outboxCommitted`).
    public func append(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        let event = Self.stamped(event)
        try await sql.insert(into: "outbox").columns(Self.columns)
            .values(
                SQLBind(event.id.description), SQLBind(event.type), SQLBind(event.aggregateID), SQLBind(event.occurredAt),
                SQLBind(String(decoding: event.payload, as: UTF8.self)), SQLBind(event.traceparent), SQLBind(event.tracestate),
                SQLBind(Self.partitionKey(of: event.aggregateID))
            ).run()
        TransactionEffects.current?.markAppendedEvents()
    }

    /// `subscriber`'s next batch in `partition` from `database`: the events after its cursor (`next`),
    /// its cursors first written again when they are not of this count (`resetCursors`).
    func nextBatch(for subscriber: String, in partition: OutboxPartition, limit: Int, from database: Database) async throws
        -> OutboxBatch
    {
        let read: @Sendable (any SQLDatabase) async throws -> OutboxBatch? = { sql in
            guard let position = try await deliveredPosition(of: subscriber, in: partition, on: sql) else { return nil }
            return try await next(after: position, in: partition, limit: limit, on: sql)
        }
        if let stored = try await database.read(read) { return stored }
        return try await database.transaction { sql in
            let position = try await resetCursors(of: subscriber, for: partition, on: sql)
            return try await next(after: position, in: partition, limit: limit, on: sql)
        }
    }

    /// The events after `position` that may go out now, oldest first, with their positions: those of
    /// every transaction that had ended when this statement began, in the order of the transactions'
    /// ids, then of `seq`; only `partition`'s. And when the oldest event after `position` happened,
    /// whether or not it may go yet (`outbox_lag_seconds`).
    ///
    /// Sequence numbers are taken at insert but become visible at commit, so reading by `seq` alone
    /// could pass an event whose transaction is still open and never come back for it. A transaction
    /// still open has an id of its own, and one not yet begun a higher id than any given so far:
    /// events below the oldest still open in this database are final, and whatever commits later
    /// sorts after them. Two transactions one after the other keep their order (the second's id is
    /// taken after the first committed). Since the held-back sort after the final ones, one read
    /// answers both: the rows up to the first held back. SQLite runs one writer at a time: there `tx`
    /// is 0 and the order is `seq`'s. Writers need no lock between them, where one held to commit
    /// made every event-writing transaction wait for the one before (a fifth of betting's time at 4
    /// clients).
    func next(
        after position: OutboxPosition, in partition: OutboxPartition = .whole, limit: Int, on sql: any SQLDatabase
    ) async throws -> OutboxBatch {
        let onPostgres = sql.dialect.name == "postgresql"
        var query = sql.select()
            .columns("tx", "seq", "event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate")
        if onPostgres { query = query.column(SQLRaw(PreparedStatements.plannedEachRun + " " + Self.isFinal + " AS final")) }
        query = query.from("outbox").where(Self.order, .greaterThan, position.pair)
        if partition.count > 1 {
            // PostgreSQL guesses an expression's equality true of one row in 200, so it read every
            // event after the position and sorted them for the first hundred of this partition
            // (25,000 rows, 14 ms a batch at two partitions in a 50,000-event backlog: two senders
            // delivered less than one). A condition it cannot see into it takes as true of half the
            // rows, near enough the partition's share, and then walks the order's index and stops at
            // the limit: `limit × count` rows whatever the backlog. (Pinning the plan with
            // `SET LOCAL enable_sort = off` took a transaction, four round trips a batch instead of
            // one: two senders delivered 8,900–9,600 events a second that way, 9,900–10,200 this.)
            query = query.where(
                SQLQueryString("CASE WHEN part_key % \(bind: partition.count) = \(bind: partition.index) THEN TRUE ELSE FALSE END"))
        }
        let rows = try await query.orderBy("tx").orderBy("seq").limit(limit).all()
        var batch = OutboxBatch(events: [], oldestWaiting: try rows.first?.decode(column: "occurred_at", as: Date.self))
        batch.full = rows.count == limit
        var bytes = 0
        for row in rows {
            if onPostgres, try !row.decode(column: "final", as: Bool.self) {
                batch.heldBack = true
                batch.full = false
                break
            }
            let event = try Self.event(in: row)
            bytes += Self.bytesSent(event)
            if bytes > Self.batchBytes, !batch.events.isEmpty {
                batch.full = true
                break
            }
            batch.events.append((try OutboxPosition(row), event))
        }
        return batch
    }

    /// At most about this much of a subscriber's request a batch takes, however many events fit: half
    /// the 2 MiB a module reads of a request's body (Hummingbird's `maxUploadSize`), so that a batch of
    /// large events is cut short rather than refused. An event larger than this goes alone.
    static let batchBytes = 1 << 20

    /// About what `event` adds to a delivery's JSON: its payload in base64 (how `Data` encodes) and
    /// a generous allowance for its id, type, aggregate, time and trace context.
    static func bytesSent(_ event: EventEnvelope) -> Int { (event.payload.count + 2) / 3 * 4 + 512 }

    /// Whether a row's transaction has ended, on PostgreSQL: its id is below every transaction still
    /// open that could write this outbox. The snapshot lists the transactions open in the whole
    /// cluster; those `pg_stat_activity` places in another database, or on a connection that is not
    /// Huddle's (`Database.applicationName`: an operator's psql, a report, a backup tool), are left out,
    /// since they never write it (where the cluster's oldest was the bound, a transaction left open in
    /// another module's database held back every module's events). One the view no longer shows (it
    /// ended after the snapshot) still counts as open: its events are not in this snapshot. The first
    /// test, against the snapshot's own oldest, spares the view on the common path.
    static let isFinal = """
        (tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint OR tx < (
            SELECT coalesce(min(open.xid::text::bigint), pg_snapshot_xmax(pg_current_snapshot())::text::bigint)
            FROM pg_snapshot_xip(pg_current_snapshot()) AS open (xid)
            WHERE (open.xid::text::bigint & 4294967295) NOT IN (
                SELECT backend_xid::text::bigint FROM pg_stat_activity
                WHERE backend_xid IS NOT NULL AND datid IS NOT NULL
                AND (datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
                    OR application_name IS DISTINCT FROM '\(Database.applicationName)'))))
        """

    /// The event a row of `outbox` (or of `outbox_dead_letters`) holds.
    static func event(in row: any SQLRow) throws -> EventEnvelope {
        EventEnvelope(
            id: try row.typedID("event_id"), type: try row.decode(column: "type", as: String.self),
            aggregateID: try row.decode(column: "aggregate_id", as: String.self),
            occurredAt: try row.decode(column: "occurred_at", as: Date.self),
            payload: Data(try row.decode(column: "payload", as: String.self).utf8),
            traceparent: try row.decode(column: "traceparent", as: String?.self),
            tracestate: try row.decode(column: "tracestate", as: String?.self))
    }

    /// How far `subscriber` has received in `partition`; nil when its cursors must first be written
    /// again (`resetCursors`).
    ///
    /// The cursors are kept for one count of partitions, always as a whole set: only `resetCursors`
    /// writes rows, all of one count at once, and `recordDelivered` moves one of them forward. When
    /// the stored set is for another count (the count was changed, or the positions come from
    /// before partitions) or not written yet, the caller resets them.
    func deliveredPosition(
        of subscriber: String, in partition: OutboxPartition = .whole, on sql: any SQLDatabase
    ) async throws -> OutboxPosition? {
        let cursors = try await cursors(of: subscriber, on: sql)
        let current = Set(cursors.filter { $0.parts == partition.count }.map(\.part))
        guard cursors.count == partition.count, current == Set(0..<partition.count) else { return nil }
        return cursors.first(where: { $0.part == partition.index })?.at
    }

    /// Writes `subscriber`'s cursors for `partition`'s count, every partition at the lowest of the
    /// stored ones (`.start` when there are none), and answers `partition`'s; leaves them alone when
    /// another sender already did. In a transaction: the lock keeps two senders from interleaving a
    /// delete and an insert, and the set is read again under it.
    ///
    /// The lowest of a whole set is safe: an event not delivered in its partition lies after that
    /// partition's cursor, so after the lowest; what goes twice the subscriber's inbox drops. A set
    /// missing a partition would not be: two senders starting together once interleaved so that one
    /// partition's row stood alone at its sender's position, the other partition started from it, and
    /// the events it had not sent below it were never sent.
    func resetCursors(of subscriber: String, for partition: OutboxPartition, on sql: any SQLDatabase) async throws -> OutboxPosition {
        try await Database.lock("outbox cursors \(subscriber)", on: sql)
        if let position = try await deliveredPosition(of: subscriber, in: partition, on: sql) { return position }
        let lowest = try await cursors(of: subscriber, on: sql).map(\.at).min() ?? .start
        try await sql.delete(from: "outbox_cursors").where("subscriber", .equal, SQLBind(subscriber)).run()
        try await sql.insert(into: "outbox_cursors").columns("subscriber", "part", "parts", "delivered_tx", "delivered_seq")
            .rows(
                (0..<partition.count).map {
                    [SQLBind(subscriber), SQLBind($0), SQLBind(partition.count), SQLBind(lowest.tx), SQLBind(lowest.seq)]
                }
            )
            .run()
        return lowest
    }

    private func cursors(of subscriber: String, on sql: any SQLDatabase) async throws -> [(part: Int, parts: Int, at: OutboxPosition)] {
        try await sql.select().columns("part", "parts", "delivered_tx", "delivered_seq").from("outbox_cursors")
            .where("subscriber", .equal, SQLBind(subscriber)).all()
            .map {
                (
                    part: try $0.decode(column: "part", as: Int.self), parts: try $0.decode(column: "parts", as: Int.self),
                    at: try OutboxPosition(cursor: $0)
                )
            }
    }

    /// Moves `subscriber`'s position in `partition` to `position`, and only forward: two senders
    /// racing (an instance that lost its lease mid-delivery, say) once set it from 200 back to 100,
    /// and what had been delivered went out again. Only a cursor of `partition`'s count is moved; a
    /// sender of another count (an instance of the old version during a rollout) records nothing,
    /// and its next read writes the set for its count again (`resetCursors`), so a rollout sends some
    /// events twice but skips none.
    func recordDelivered(
        to subscriber: String, in partition: OutboxPartition = .whole, through position: OutboxPosition, on sql: any SQLDatabase
    ) async throws {
        let stored = SQLGroupExpression([SQLColumn("delivered_tx"), SQLColumn("delivered_seq")])
        try await sql.update("outbox_cursors").set("delivered_tx", to: SQLBind(position.tx)).set("delivered_seq", to: SQLBind(position.seq))
            .where("subscriber", .equal, SQLBind(subscriber)).where("part", .equal, SQLBind(partition.index))
            .where("parts", .equal, SQLBind(partition.count)).where(stored, .lessThan, position.pair)
            .run()
    }

    /// Deletes events older than `cutoff` that every one of `subscribers` has received in every
    /// partition. A subscriber with no cursor yet has received nothing.
    func prune(deliveredTo subscribers: [String], before cutoff: Date, on sql: any SQLDatabase) async throws {
        guard let everyone = try await receivedByEveryone(subscribers, on: sql) else { return }
        try await sql.delete(from: "outbox").where(Self.order, .lessThanOrEqual, everyone.pair)
            .where("occurred_at", .lessThan, SQLBind(cutoff)).run()
    }

    /// The position up to which every one of `subscribers` has received every partition; nil when
    /// there are none. A subscriber with no cursor yet has received nothing.
    func receivedByEveryone(_ subscribers: [String], on sql: any SQLDatabase) async throws -> OutboxPosition? {
        var everyone: OutboxPosition?
        for subscriber in subscribers {
            let cursors = try await sql.select().columns("delivered_tx", "delivered_seq").from("outbox_cursors")
                .where("subscriber", .equal, SQLBind(subscriber)).all().map { try OutboxPosition(cursor: $0) }
            let position = cursors.min() ?? .start
            everyone = min(everyone ?? position, position)
        }
        return everyone
    }

    /// The order events are delivered in, as a row value: (`tx`, `seq`).
    static let order = SQLGroupExpression([SQLColumn("tx"), SQLColumn("seq")])

    /// The columns an event is written to, in the order `append` binds them.
    public static let columns = ["event_id", "type", "aggregate_id", "occurred_at", "payload", "traceparent", "tracestate", "part_key"]

    /// The key that places an event in a partition (`OutboxPartition`): the 32-bit FNV-1a hash of
    /// its aggregate's id, so one aggregate's events share a partition and keep their order. Written
    /// with the event, since the two stores share no hash function to compute it when reading.
    public static func partitionKey(of aggregateID: String) -> Int64 {
        var hash: UInt32 = 2_166_136_261
        for byte in aggregateID.utf8 {
            hash ^= UInt32(byte)
            hash &*= 16_777_619
        }
        return Int64(hash)
    }

    /// `event` as `append` writes it: with the current span's trace context.
    public static func stamped(_ event: EventEnvelope) -> EventEnvelope {
        var event = event
        EventTracing.stamp(&event)
        return event
    }
}

/// What `Outbox.next` answers: the events that may go now, when the oldest waiting happened, and
/// whether committed events wait behind a transaction still open.
struct OutboxBatch: Sendable {
    var events: [(OutboxPosition, EventEnvelope)]
    var oldestWaiting: Date?
    var heldBack = false
    /// More events may be ready now: the batch stopped at its limit or its size (`Outbox.batchBytes`).
    var full = false
}

/// Where an event stands in the order of delivery: its transaction's id (0 on SQLite), then its
/// sequence number. A subscriber's position is that of the last event it received.
struct OutboxPosition: Sendable, Comparable {
    var tx: Int64
    var seq: Int64

    static let start = OutboxPosition(tx: 0, seq: 0)

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.tx, lhs.seq) < (rhs.tx, rhs.seq) }

    var pair: SQLGroupExpression { SQLGroupExpression([SQLBind(tx), SQLBind(seq)]) }
}

extension OutboxPosition {
    /// An outbox row's position.
    init(_ row: any SQLRow) throws {
        self.init(tx: try row.decode(column: "tx", as: Int64.self), seq: try row.decode(column: "seq", as: Int64.self))
    }

    /// A cursor's position.
    init(cursor row: any SQLRow) throws {
        self.init(tx: try row.decode(column: "delivered_tx", as: Int64.self), seq: try row.decode(column: "delivered_seq", as: Int64.self))
    }
}

/// One of the `count` parts a publisher's stream is sent in, each by one sender at a time: the
/// events whose `part_key` leaves `index` when divided by `count`. Each aggregate's events keep their
/// order; events of different aggregates in different partitions may arrive in either order.
public struct OutboxPartition: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public static let whole = OutboxPartition(index: 0, count: 1)

    public static func all(_ count: Int) -> [OutboxPartition] { (0..<count).map { OutboxPartition(index: $0, count: count) } }

    public var description: String { "\(index + 1) of \(count)" }
}
