import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import ServiceKitTesting
import Testing

@testable import ServiceKit

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

    @Test("Batches go out in commit order and resume where the subscriber stopped", arguments: TestStore.all)
    func resumes(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate([.outbox(version: 1), .outboxTraceContext(version: 2)], logger: DatabaseTests.logger)
            let outbox = Outbox()
            for index in 0..<5 {
                _ = try await database.transaction { sql in
                    try await outbox.append(Self.testEvent, aggregateID: "a\(index % 2)", payload: ["n": index], on: sql)
                }
            }
            let transport = FlakyTransport()
            let dispatcher = OutboxDispatcher(
                database: database, transport: transport, settings: .init(subscribers: [.search], batchSize: 2),
                logger: DatabaseTests.logger)
            await #expect(throws: FlakyTransport.Refused.self) { try await dispatcher.deliverNextBatch(to: .search) }
            transport.down.withLockedValue { $0 = false }
            #expect(try await dispatcher.deliverNextBatch(to: .search) == 2)
            #expect(try await dispatcher.deliverNextBatch(to: .search) == 2)
            #expect(try await dispatcher.deliverNextBatch(to: .search) == 1)
            #expect(try await dispatcher.deliverNextBatch(to: .search) == 0)
            let numbers = try transport.received.withLockedValue { $0 }.map {
                try HuddleJSON.decoder.decode([String: Int].self, from: $0.payload)["n"]
            }
            #expect(numbers == [0, 1, 2, 3, 4])
            // Another subscriber starts from the beginning.
            #expect(try await dispatcher.deliverNextBatch(to: .games) == 2)
        }
    }

    @Test("Only old events that every subscriber received are pruned", arguments: TestStore.all)
    func pruning(store: TestStore) async throws {
        try await DatabaseTests.withDatabase(store) { database in
            try await database.migrate([.outbox(version: 1), .outboxTraceContext(version: 2)], logger: DatabaseTests.logger)
            let outbox = Outbox()
            let old = Date().addingTimeInterval(-3 * 24 * 3600)
            try await database.transaction { sql in
                for index in 0..<4 {
                    let at = index < 3 ? old : Date()
                    try await outbox.append(
                        EventEnvelope(type: "test", aggregateID: "a", occurredAt: at, payload: Data("{}".utf8)), on: sql)
                }
                try await outbox.recordDelivered(to: "search", through: 4, on: sql)
                try await outbox.recordDelivered(to: "games", through: 2, on: sql)
                try await outbox.prune(deliveredTo: ["search", "games"], before: Date().addingTimeInterval(-24 * 3600), on: sql)
            }
            let left = try await database.read { sql in try await outbox.events(after: 0, limit: 10, on: sql) }.map(\.0)
            #expect(left == [3, 4])
        }
    }
}
