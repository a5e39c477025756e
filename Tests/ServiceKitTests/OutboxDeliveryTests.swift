import Contracts
import Foundation
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

/// Delivery as several instances of a publisher do it: one sender a partition, cursors that only
/// move forward, refused events parked while the stream goes on, visibility judged in this database.
@Suite("Outbox delivery")
struct OutboxDeliveryTests {
    /// Takes every event but those whose `n` is in `refused`, which it refuses as a subscriber that
    /// answered would (422); records each call's events.
    final class RefusingTransport: EventTransport {
        let received = NIOLockedValueBox<[EventEnvelope]>([])
        let refused: NIOLockedValueBox<Set<Int>>

        init(refusing refused: Set<Int> = []) { self.refused = NIOLockedValueBox(refused) }

        func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
            let refused = refused.withLockedValue { $0 }
            if try OutboxTests.numbers(events).contains(where: { $0.map(refused.contains) ?? false }) {
                throw EventsRefused(status: 422, detail: "n is not a number this subscriber takes")
            }
            received.withLockedValue { $0.append(contentsOf: events) }
        }

        var numbers: [Int] { (try? OutboxTests.numbers(received.withLockedValue { $0 }).compactMap { $0 }) ?? [] }
    }

    static func commit(_ count: Int, from first: Int = 0, aggregates: Int = 10, in database: Database) async throws {
        for index in first..<(first + count) {
            try await database.transaction { sql in
                try await Outbox(now: database.now).append(
                    OutboxTests.testEvent, aggregateID: "a\(index % aggregates)", payload: ["n": index], on: sql)
            }
        }
    }

    static func instance(_ database: Database, _ transport: some EventTransport, _ settings: OutboxDispatcher.Settings) -> Task<
        Void, any Error
    > {
        var settings = settings
        settings.publisher = .games
        let dispatcher = OutboxDispatcher(database: database, transport: transport, settings: settings, logger: DatabaseTests.logger)
        return Task { try await dispatcher.run() }
    }

    @Test(
        "two instances of a publisher, each sending two partitions' leases it holds: every event reaches the subscriber once, each aggregate in order",
        arguments: TestStore.all)
    func twoInstancesDeliverOnce(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            let transport = RefusingTransport()
            let settings = OutboxDispatcher.Settings(subscribers: [.search], pollInterval: .milliseconds(100), batchSize: 7, partitions: 2)
            let instances = [Self.instance(database, transport, settings), Self.instance(database, transport, settings)]
            defer { instances.forEach { $0.cancel() } }
            try await Self.commit(200, in: database)
            let numbers = try await poll {
                transport.numbers
            } until: {
                $0.count >= 200
            }
            // What a second sender of the same partition would add comes within a poll or two.
            try await Task.sleep(for: .milliseconds(400))
            #expect(transport.numbers.count == 200)
            #expect(Set(numbers) == Set(0..<200))
            for aggregate in 0..<10 {
                let its = transport.numbers.filter { $0 % 10 == aggregate }
                #expect(its == its.sorted(), "aggregate a\(aggregate) out of order")
            }
        }
    }

    @Test("a partition's lease is taken over when its holder stops, and released at shutdown", arguments: TestStore.all)
    func leaseTakenOver(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            let first = RefusingTransport()
            let second = RefusingTransport()
            // A lease far longer than the wait below: only its release at shutdown lets the other take over in time.
            let settings = OutboxDispatcher.Settings(subscribers: [.search], pollInterval: .milliseconds(100), leaseDuration: 120)
            let holder = Self.instance(database, first, settings)
            try await Self.commit(3, in: database)
            #expect(
                try await poll {
                    first.numbers
                } until: {
                    $0.count == 3
                }.count == 3)
            let waiting = Self.instance(database, second, settings)
            defer { waiting.cancel() }
            try await Self.commit(2, from: 3, in: database)
            #expect(
                try await poll {
                    first.numbers
                } until: {
                    $0.count == 5
                }.count == 5)
            holder.cancel()
            _ = await holder.result
            try await Self.commit(2, from: 5, in: database)
            // Released at shutdown: taken at the waiting instance's next ask, not after the lease lapses. A
            // batch the holder sent but was stopped before recording (3 and 4) comes again: delivery is
            // at least once, and the subscriber's inbox drops the repeat.
            let taken = try await poll(within: .seconds(40)) {
                second.numbers
            } until: {
                $0.contains(6)
            }
            #expect(taken.suffix(2) == [5, 6])
            #expect(taken.allSatisfy { $0 >= 3 })
            #expect(first.numbers == [0, 1, 2, 3, 4])
        }
    }

    @Test(
        "an event the subscriber refuses is parked after its attempts, the stream goes on, and a replay delivers it",
        arguments: TestStore.all)
    func poisonedEventParked(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            let transport = RefusingTransport(refusing: [3])
            let settings = OutboxDispatcher.Settings(
                subscribers: [.search], pollInterval: .milliseconds(100), firstRetry: .milliseconds(5), maxRetry: .milliseconds(20),
                batchSize: 5, maxAttempts: 3)
            let running = Self.instance(database, transport, settings)
            defer { running.cancel() }
            try await Self.commit(12, aggregates: 1, in: database)
            let numbers = try await poll {
                transport.numbers
            } until: {
                $0.count >= 11
            }
            #expect(numbers == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11])
            let dispatcher = OutboxDispatcher(database: database, transport: transport, settings: settings, logger: DatabaseTests.logger)
            let parked = try await dispatcher.parked().items
            #expect(parked.map(\.subscriber) == [.search])
            #expect(try OutboxTests.numbers(parked.map(\.event)) == [3])
            #expect(parked.first?.attempts == 3 && parked.first?.error.contains("422") == true)
            // Refused again: it stays, with one attempt more.
            let id = try #require(parked.first?.event.id)
            await #expect(throws: CommonError.self) { try await dispatcher.replay(id) }
            #expect(try await dispatcher.parked().items.first?.attempts == 4)
            transport.refused.withLockedValue { $0 = [] }
            try await dispatcher.replay(id)
            #expect(transport.numbers.last == 3)
            #expect(try await dispatcher.parked().items.isEmpty)
        }
    }

    /// Fails, as a call that timed out does, when given more than `most` events; records the calls it took.
    final class SlowTransport: EventTransport {
        let most: Int
        let calls = NIOLockedValueBox<[[EventEnvelope]]>([])
        struct TimedOut: Error {}

        init(takingAtMost most: Int) { self.most = most }

        func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
            guard events.count <= most else { throw TimedOut() }
            calls.withLockedValue { $0.append(events) }
        }
    }

    @Test("a subscriber too slow for a full batch gets its events in smaller calls, in order", arguments: TestStore.all)
    func failedCallsGoInHalves(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            let transport = SlowTransport(takingAtMost: 2)
            let settings = OutboxDispatcher.Settings(
                subscribers: [.search], pollInterval: .milliseconds(100), firstRetry: .milliseconds(5), maxRetry: .milliseconds(20),
                batchSize: 8)
            // Committed before the sender starts, so that its first call asks for eight.
            try await Self.commit(12, aggregates: 1, in: database)
            let running = Self.instance(database, transport, settings)
            defer { running.cancel() }
            let calls = try await poll {
                transport.calls.withLockedValue { $0 }
            } until: {
                $0.joined().count >= 12
            }
            #expect(try OutboxTests.numbers(Array(calls.joined())).compactMap { $0 } == Array(0..<12))
            #expect(calls.allSatisfy { $0.count <= 2 })
        }
    }

    @Test("the batch size rule: halved after each failed call, down to one, doubled back after full batches in a row")
    func batchSizeRule() {
        var size = BatchSize(8, steadyCalls: 2)
        size.failed()
        #expect(size.current == 4)
        size.failed()
        size.failed()
        size.failed()
        #expect(size.current == 1)
        size.delivered(full: true)
        #expect(size.current == 1)
        size.delivered(full: true)
        #expect(size.current == 2)
        // A batch that was not full starts the count again.
        size.delivered(full: true)
        size.delivered(full: false)
        size.delivered(full: true)
        #expect(size.current == 2)
        size.delivered(full: true)
        #expect(size.current == 4)
        for _ in 0..<6 { size.delivered(full: true) }
        #expect(size.current == 8)
        size.failed()
        #expect(size.current == 4)
    }

    @Test("the refusal rule: retry, then one at a time through the refused batch, then park the one refused alone")
    func refusalRule() {
        var refusals = Refusals(maxAttempts: 2)
        let last = OutboxPosition(tx: 0, seq: 5)
        #expect(refusals.refused(5, through: last) == .retry)
        #expect(refusals.refused(5, through: last) == .isolate)
        #expect(refusals.batchSize(100) == 1)
        refusals.delivered(through: OutboxPosition(tx: 0, seq: 1))
        #expect(refusals.isolating)
        #expect(refusals.refused(1, through: OutboxPosition(tx: 0, seq: 2)) == .retry)
        #expect(refusals.refused(1, through: OutboxPosition(tx: 0, seq: 2)) == .park)
        refusals.delivered(through: OutboxPosition(tx: 0, seq: 3))
        #expect(refusals.isolating)
        refusals.delivered(through: last)
        #expect(!refusals.isolating && refusals.batchSize(100) == 100)
    }

    @Test("a change of the partition count starts every partition from the lowest cursor: nothing is skipped", arguments: TestStore.all)
    func partitionCountChanged(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            try await Self.commit(30, in: database)
            try await OutboxTests.waitUntilShown(30, by: Outbox(now: database.now), in: database)
            let transport = RefusingTransport()
            let three = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search], batchSize: 4, partitions: 3),
                logger: DatabaseTests.logger)
            // Partitions 1 and 3 of 3 have gone ahead, partition 2 has not begun.
            for index in [0, 2] {
                _ = try await three.deliverNextBatch(.init(subscriber: .search, partition: .init(index: index, count: 3)), limit: 4)
            }
            let sentByThree = Set(transport.numbers)
            let two = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search], batchSize: 50, partitions: 2),
                logger: DatabaseTests.logger)
            // A read may stop for a moment at an event it cannot yet tell is final (`Outbox.next`; under a
            // full suite other databases' transactions come and go): each partition is read until it has
            // nothing left and nothing held back, as its sender would.
            for partition in OutboxPartition.all(2) {
                let drained = try await eventually {
                    let sent = try await two.deliverNextBatch(.init(subscriber: .search, partition: partition), limit: 50)
                    return sent.count == 0 && !sent.heldBack
                }
                #expect(drained, "partition \(partition.index) of 2 still held back")
            }
            #expect(Set(transport.numbers) == Set(0..<30))
            #expect(sentByThree.count == 8)
        }
    }

    /// Whether `database`'s dispatcher sends an event committed while a write transaction stays open
    /// on `holder` (after `setUp` in it). It may be held back for a moment: a transaction of another
    /// database that ended between the snapshot and the read of `pg_stat_activity` counts as open
    /// (`Outbox.isFinal`), and under a full suite other tests commit all the time. Held back for good
    /// by the open transaction, it is never sent.
    static func sentWhileOpen(on holder: Database, setUp: SQLQueryString? = nil, in database: Database) async throws -> Bool {
        let (begun, begin) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let open = Task {
            try await holder.transaction { sql in
                if let setUp { try await sql.raw(setUp).run() }
                try await sql.raw("SELECT pg_current_xact_id()").run()
                begin.yield()
                for await _ in released { break }
            }
        }
        defer { release.yield() }
        for await _ in begun { break }
        try await commit(1, in: database)
        let dispatcher = OutboxDispatcher(
            database: database, transport: RefusingTransport(), settings: .init(subscribers: [.search]), logger: DatabaseTests.logger)
        let sent = try await eventually(within: .seconds(10)) { try await dispatcher.deliverNextBatch(to: .search).count == 1 }
        release.yield()
        try await open.value
        return sent
    }

    // PostgreSQL only: SQLite has no other databases' transactions.
    @Test(
        "a write transaction left open in another database holds back no event of this one",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func otherDatabasesTransactionsDoNotHoldBack() async throws {
        try await DatabaseTests.withDatabase(.postgres) { other in
            try await DatabaseTests.withDatabase(.postgres) { database in
                try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
                #expect(try await Self.sentWhileOpen(on: other, in: database))
            }
        }
    }

    // PostgreSQL only: SQLite runs one writer at a time.
    @Test(
        "a write transaction left open in this database by another program (an operator's psql) holds back no event",
        .enabled(if: TestStore.postgresURL != nil), .timeLimit(.minutes(1)))
    func otherProgramsTransactionsDoNotHoldBack() async throws {
        try await DatabaseTests.withDatabase(.postgres) { database in
            try await database.migrate(OutboxTests.migrations, logger: DatabaseTests.logger)
            #expect(try await Self.sentWhileOpen(on: database, setUp: "SET LOCAL application_name = 'psql'", in: database))
        }
    }
}
