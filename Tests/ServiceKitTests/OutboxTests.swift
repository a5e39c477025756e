import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOConcurrencyHelpers
import SQLKit
import ServerContracts
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

@Suite("Outbox")
struct OutboxTests {
    /// Records what it was given; fails while `down` is set.
    final class FlakyTransport: EventTransport {
        let received = NIOLockedValueBox<[EventEnvelope]>([])
        let down = NIOLockedValueBox(true)
        struct Refused: Error {}

        func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
            if down.withLockedValue({ $0 }) { throw Refused() }
            received.withLockedValue { $0.append(contentsOf: events) }
        }
    }

    static let testEvent = EventType<[String: Int]>("test.event", owner: .search)
    static let migrations: [Migration] = [
        .outbox(version: 1), .outboxTraceContext(version: 2), .outboxInTransactionOrder(version: 3), .outboxDelivery(version: 4),
    ]

    /// Waits until the outbox shows `count` events, and answers their positions. On PostgreSQL an
    /// event shows once no transaction older than its own is open, anywhere in the cluster: other
    /// tests' too.
    @discardableResult
    static func waitUntilShown(_ count: Int, by outbox: Outbox, in database: Database) async throws -> [OutboxPosition] {
        let positions = try await poll {
            try await database.read { sql in try await outbox.next(after: .start, limit: count + 1, on: sql) }.events.map(\.0)
        } until: {
            $0.count >= count
        }
        try #require(positions.count == count)
        return positions
    }

    /// One empty test event for each aggregate id, appended in one transaction; their positions once shown.
    static func appendedAndShown(_ aggregates: [String], to outbox: Outbox, in database: Database) async throws -> [OutboxPosition] {
        try await database.transaction { sql in
            for aggregate in aggregates {
                try await outbox.append(
                    EventEnvelope(type: "test", aggregateID: aggregate, occurredAt: Date(), payload: Data("{}".utf8)), on: sql)
            }
        }
        return try await waitUntilShown(aggregates.count, by: outbox, in: database)
    }

    /// A fresh store with the outbox's tables, and its outbox.
    static func withOutbox(_ store: TestStore, _ body: (Database, Outbox) async throws -> Void) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(migrations, logger: DatabaseTests.logger)
            try await body(database, Outbox(now: database.now))
        }
    }

    static func numbers(_ events: [EventEnvelope]) throws -> [Int?] {
        try events.map { try HuddleJSON.decoder.decode([String: Int].self, from: $0.payload)["n"] }
    }

    @Test("Batches go out in commit order and resume where the subscriber stopped", arguments: TestStore.all)
    func resumes(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            for index in 0..<5 {
                _ = try await database.transaction { sql in
                    try await outbox.append(Self.testEvent, aggregateID: "a\(index % 2)", payload: ["n": index], on: sql)
                }
            }
            try await Self.waitUntilShown(5, by: outbox, in: database)
            let transport = FlakyTransport()
            let dispatcher = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search], batchSize: 2),
                logger: DatabaseTests.logger)
            await #expect(throws: FlakyTransport.Refused.self) { try await dispatcher.deliverNextBatch(to: .search) }
            transport.down.withLockedValue { $0 = false }
            #expect(try await dispatcher.deliverNextBatch(to: .search).count == 2)
            #expect(try await dispatcher.deliverNextBatch(to: .search).count == 2)
            #expect(try await dispatcher.deliverNextBatch(to: .search).count == 1)
            #expect(try await dispatcher.deliverNextBatch(to: .search).count == 0)
            #expect(try Self.numbers(transport.received.withLockedValue { $0 }) == [0, 1, 2, 3, 4])
            // Another subscriber starts from the beginning.
            #expect(try await dispatcher.deliverNextBatch(to: .games).count == 2)
        }
    }

    @Test("a commit that wrote events wakes the dispatcher: they go out at once, though it polls once a minute", arguments: TestStore.all)
    func commitWakesDispatcher(store: TestStore) async throws {
        let transport = CountingTransport()
        try await Self.whileDispatching(store, to: transport, .init(subscribers: [.search, .games], pollInterval: .seconds(60))) {
            database in
            for index in 0..<3 {
                try await Self.commitEvent(index, in: database)
                // Both subscribers' loops wait on the one bell; each must see the ring. Within 10 s,
                // since the next poll is a minute away (on PostgreSQL other tests' open transactions
                // may hold the event back for a moment).
                let received = try await poll(within: .seconds(10)) {
                    transport.received.withLockedValue { $0.events }
                } until: {
                    $0.count == 2 * (index + 1)
                }
                #expect(received.count == 2 * (index + 1))
            }
        }
    }

    @Test("events committed one after another soon after a batch wait out its gather and go together", arguments: TestStore.all)
    func commitsInARowGoTogether(store: TestStore) async throws {
        let transport = CountingTransport()
        try await Self.whileDispatching(
            store, to: transport, .init(subscribers: [.search], pollInterval: .seconds(60), gather: .seconds(3))
        ) {
            database in
            // Twenty commits, each ringing; the first goes at once, the rest within the next's gather.
            for index in 0..<20 { try await Self.commitEvent(index, in: database) }
            let received = try await poll {
                transport.received.withLockedValue { $0 }
            } until: {
                $0.events.count == 20
            }
            #expect(try Self.numbers(received.events) == Array(0..<20))
            // A call an event without the gather; one, two or (if a poll of its own came between) three with it.
            #expect(received.calls <= 3)
        }
    }

    /// About 400 KB each as sent (base64), the fourth about 2 MB.
    static let paddedKilobytes = [300, 300, 300, 1500, 300]

    /// One event of each size in `paddedKilobytes`, aggregates a0, a1 …, committed together.
    static func commitPadded(in database: Database) async throws {
        try await database.transaction { sql in
            for (index, size) in paddedKilobytes.enumerated() {
                let payload = Data(#"{"pad":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: size * 1000) + Data(#""}"#.utf8)
                try await Outbox(now: database.now).append(
                    EventEnvelope(type: "test", aggregateID: "a\(index)", occurredAt: database.now(), payload: payload), on: sql)
            }
        }
    }

    @Test("a batch stops at about a megabyte of events, a larger event going alone, and says more is ready", arguments: TestStore.all)
    func batchesStopAtAMegabyte(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            try await Self.commitPadded(in: database)
            var position = OutboxPosition.start, batches: [(count: Int, full: Bool)] = []
            for _ in 0..<4 {
                let after = position
                let batch = try await poll {
                    try await database.read { sql in try await outbox.next(after: after, limit: 100, on: sql) }
                } until: {
                    !$0.events.isEmpty
                }
                batches.append((batch.events.count, batch.full))
                position = try #require(batch.events.last?.0)
            }
            #expect(batches.map(\.count) == [2, 1, 1, 1])
            #expect(batches.map(\.full) == [true, true, true, false])
            let end = position
            #expect(try await database.read { sql in try await outbox.next(after: end, limit: 100, on: sql) }.events.isEmpty)
        }
    }

    @Test("the dispatcher sends a batch cut short by its size and goes on at once", arguments: TestStore.all)
    func batchesCutShortGoOnAtOnce(store: TestStore) async throws {
        let transport = CountingTransport()
        try await Self.whileDispatching(store, to: transport, .init(subscribers: [.search], pollInterval: .seconds(60))) { database in
            try await Self.commitPadded(in: database)
            // Within 4 s: a sender that waited after each cut batch would wake only to renew its lease
            // (every 3 s), and the next poll is a minute away.
            let received = try await poll(within: .seconds(4)) {
                transport.received.withLockedValue { $0 }
            } until: {
                $0.events.count == Self.paddedKilobytes.count
            }
            #expect(received.events.map(\.aggregateID) == ["a0", "a1", "a2", "a3", "a4"])
            #expect(received.calls == 4)
        }
    }

    /// A fresh migrated store whose outbox a dispatcher sends to `transport` during `body`.
    static func whileDispatching(
        _ store: TestStore, to transport: some EventTransport, _ settings: OutboxDispatcher.Settings,
        _ body: (Database) async throws -> Void
    ) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(Self.migrations, logger: DatabaseTests.logger)
            let dispatcher = OutboxDispatcher(database: database, transport: transport, settings: settings, logger: DatabaseTests.logger)
            let running = Task { try await dispatcher.run() }
            defer { running.cancel() }
            try await body(database)
        }
    }

    /// Commits a transaction that writes one event, numbered `n`.
    static func commitEvent(_ n: Int, in database: Database) async throws {
        try await database.transaction { sql in
            try await Outbox(now: Effects.system.now).append(Self.testEvent, aggregateID: "a", payload: ["n": n], on: sql)
        }
    }

    /// Counts the calls it takes to deliver the events it records.
    final class CountingTransport: EventTransport {
        let received = NIOLockedValueBox<(events: [EventEnvelope], calls: Int)>(([], 0))

        func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
            received.withLockedValue { $0 = ($0.events + events, $0.calls + 1) }
        }
    }

    @Test("A subscriber's position only moves forward, whichever sender records last", arguments: TestStore.all)
    func positionsOnlyMoveForward(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            let positions = try await Self.appendedAndShown(["a", "a", "a"], to: outbox, in: database)
            _ = try await database.transaction { sql in try await outbox.resetCursors(of: "search", for: .whole, on: sql) }
            for (recorded, expected) in [(positions[0], positions[0]), (positions[2], positions[2]), (positions[1], positions[2])] {
                try await database.transaction { sql in try await outbox.recordDelivered(to: "search", through: recorded, on: sql) }
                #expect(try await database.read { sql in try await outbox.deliveredPosition(of: "search", on: sql) } == expected)
            }
        }
    }

    @Test(
        "A partition's sender that records before the cursors are written leaves the others where they were, so none skips an event",
        arguments: TestStore.all)
    func recordBeforeTheCursorsAreWritten(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            let positions = try await Self.appendedAndShown(["a0", "a1", "a2"], to: outbox, in: database)
            let (first, second) = (OutboxPartition(index: 0, count: 2), OutboxPartition(index: 1, count: 2))
            // What another sender's reset between its delete and its insert once left: no set written.
            try await database.transaction { sql in
                try await outbox.recordDelivered(to: "search", in: first, through: positions[2], on: sql)
            }
            #expect(try await database.read { sql in try await outbox.deliveredPosition(of: "search", in: second, on: sql) } == nil)
            let secondFrom = try await database.transaction { sql in try await outbox.resetCursors(of: "search", for: second, on: sql) }
            #expect(secondFrom == .start)
            try await database.transaction { sql in
                try await outbox.recordDelivered(to: "search", in: first, through: positions[2], on: sql)
            }
            #expect(try await database.read { sql in try await outbox.deliveredPosition(of: "search", in: first, on: sql) } == positions[2])
            #expect(try await database.read { sql in try await outbox.deliveredPosition(of: "search", in: second, on: sql) } == .start)
        }
    }

    @Test(
        "A deleted player's parked events are erased and those every subscriber received emptied; their deletion and events not yet received stay whole",
        arguments: TestStore.all)
    func deletedPlayerForgotten(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            let (player, other) = (UserID(), UserID())
            let written: [(type: String, aggregate: String, payload: String)] = [
                ("games.game.joined", "g1", #"{"by":"\#(player)"}"#), ("games.game.joined", "g1", #"{"by":"\#(other)"}"#),
                ("auth.user.profile", player.description, "{}"),
                (AuthEvent.accountDeleted.name, player.description, #"{"userId":"\#(player)"}"#),
                ("games.game.left", "g1", #"{"by":"\#(player)"}"#),
            ]
            try await database.transaction { sql in
                for event in written {
                    try await outbox.append(
                        EventEnvelope(
                            type: event.type, aggregateID: event.aggregate, occurredAt: Date(), payload: Data(event.payload.utf8)),
                        on: sql)
                }
            }
            let positions = try await Self.waitUntilShown(written.count, by: outbox, in: database)
            let events = try await database.read { sql in try await outbox.next(after: .start, limit: 10, on: sql) }.events.map(\.1)
            try await database.transaction { sql in
                _ = try await outbox.resetCursors(of: "search", for: .whole, on: sql)
                for parked in [0, 3] {
                    try await DeadLetterStore(outbox: outbox).park(
                        events[parked], at: positions[parked], for: "search", in: .whole, error: "422", attempts: 3, on: sql)
                }
                // Received up to the deletion; the last is still on its way.
                try await outbox.recordDelivered(to: "search", through: positions[3], on: sql)
                try await OutboxErasure(now: database.now, subscribers: [.search]).forget(player, on: sql)
            }
            let left = try await database.read { sql in try await outbox.next(after: .start, limit: 10, on: sql) }.events.map(\.1)
            #expect(left.map(\.id) == events.map(\.id))
            let payloads = left.map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(payloads == ["{}", written[1].payload, "{}", written[3].payload, written[4].payload])
            let parked = try await database.read { sql in try await DeadLetterStore(outbox: outbox).parked(on: sql) }.map(\.event.id)
            #expect(parked == [events[3].id])
        }
    }

    @Test("Only old events that every subscriber received are pruned", arguments: TestStore.all)
    func pruning(store: TestStore) async throws {
        try await Self.withOutbox(store) { database, outbox in
            let old = Date().addingTimeInterval(-3 * 24 * 3600)
            try await database.transaction { sql in
                for index in 0..<4 {
                    let at = index < 3 ? old : Date()
                    try await outbox.append(
                        EventEnvelope(type: "test", aggregateID: "a", occurredAt: at, payload: Data("{}".utf8)), on: sql)
                }
            }
            let positions = try await Self.waitUntilShown(4, by: outbox, in: database)
            try await database.transaction { sql in
                for subscriber in ["search", "games"] { _ = try await outbox.resetCursors(of: subscriber, for: .whole, on: sql) }
                try await outbox.recordDelivered(to: "search", through: positions[3], on: sql)
                try await outbox.recordDelivered(to: "games", through: positions[1], on: sql)
                try await outbox.prune(deliveredTo: ["search", "games"], before: Date().addingTimeInterval(-24 * 3600), on: sql)
            }
            let left = try await database.read { sql in try await outbox.next(after: .start, limit: 10, on: sql) }.events.map(\.0)
            #expect(left == Array(positions[2...]))
        }
    }

    @Test("Events and positions from before the transaction order go on where they were", arguments: TestStore.all)
    func beforeTheTransactionOrder(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(Array(Self.migrations.prefix(2)), logger: DatabaseTests.logger)
            // Written as the outbox did before it had transactions: two events, the first delivered.
            try await database.transaction { sql in
                for index in 0..<2 {
                    try await sql.insert(into: "outbox").columns("event_id", "type", "aggregate_id", "occurred_at", "payload")
                        .values(
                            SQLBind(EventID().description), SQLBind("test.event"), SQLBind("a"), SQLBind(Date()),
                            SQLBind("{\"n\":\(index)}")
                        )
                        .run()
                }
                try await sql.insert(into: "outbox_positions").columns("subscriber", "delivered_seq").values(SQLBind("search"), SQLBind(1))
                    .run()
            }
            try await database.migrate(Self.migrations, logger: DatabaseTests.logger)
            let outbox = Outbox(now: database.now)
            try await database.transaction { sql in
                try await outbox.append(Self.testEvent, aggregateID: "a", payload: ["n": 2], on: sql)
            }
            try await Self.waitUntilShown(3, by: outbox, in: database)
            let transport = FlakyTransport()
            transport.down.withLockedValue { $0 = false }
            let dispatcher = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search]), logger: DatabaseTests.logger)
            #expect(try await dispatcher.deliverNextBatch(to: .search).count == 2)
            #expect(try Self.numbers(transport.received.withLockedValue { $0 }) == [1, 2])
        }
    }

    // PostgreSQL only: on SQLite one transaction writes at a time.
    @Test(
        "an event whose transaction is still open holds back those committed after it, and then goes first: none is skipped",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func openTransactionHoldsBack() async throws {
        try await DatabaseTests.withDatabase(.postgres) { database in
            try await database.migrate(Self.migrations, logger: DatabaseTests.logger)
            let outbox = Outbox(now: database.now)
            let (appended, appendedNow) = AsyncStream.makeStream(of: Void.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            let first = Task {
                try await database.transaction { sql in
                    try await outbox.append(Self.testEvent, aggregateID: "a", payload: ["n": 0], on: sql)
                    appendedNow.yield()
                    for await _ in released { break }
                }
            }
            for await _ in appended { break }
            // Written after the first event and committed while the first's transaction is open.
            try await database.transaction { sql in
                try await outbox.append(Self.testEvent, aggregateID: "b", payload: ["n": 1], on: sql)
            }
            let transport = FlakyTransport()
            transport.down.withLockedValue { $0 = false }
            let dispatcher = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search]), logger: DatabaseTests.logger)
            let held = try await dispatcher.deliverNextBatch(to: .search)
            #expect(held.count == 0 && held.heldBack)
            // What the lag gauge is taken from: an event is waiting, though none may go yet.
            let waiting = try await database.read { try await outbox.next(after: .start, limit: 10, on: $0) }
            #expect(waiting.events.isEmpty && waiting.oldestWaiting != nil)
            release.yield()
            try await first.value
            #expect(
                try await eventually {
                    _ = try await dispatcher.deliverNextBatch(to: .search)
                    return transport.received.withLockedValue { $0.count } >= 2
                })
            #expect(try Self.numbers(transport.received.withLockedValue { $0 }) == [0, 1])
        }
    }
}
