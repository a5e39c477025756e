import Foundation
import Logging
import SQLKit
import ServiceKit
import ServiceKitTesting
import Testing

@Suite("Doorbell")
struct DoorbellTests {
    @Test("a worker waiting for a minute wakes when another transaction rings with its commit", arguments: TestStore.all)
    func ringWakesWaiter(store: TestStore) async throws {
        try await store.withDatabase(logger: .quiet("doorbell-test")) { database in
            let doorbell = Doorbell(channel: "huddle_test_doorbell", database: database, logger: .quiet("doorbell-test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await doorbell.run() }
                defer { group.cancelAll() }
                let started = ContinuousClock.now
                let waiter = Task { await doorbell.wait(upTo: .seconds(60)) }
                // Rung until it wakes: the listener may not be listening yet when the first ring commits.
                let ringer = Task {
                    while !Task.isCancelled {
                        try await database.transaction { sql in try await doorbell.ring(on: sql) }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                await waiter.value
                ringer.cancel()
                #expect(ContinuousClock.now - started < .seconds(30))
            }
        }
    }

    @Test("a ring while no one waits makes the next wait return at once")
    func ringIsKept() async throws {
        try await TestStore.sqlite.withDatabase(logger: .quiet("doorbell-test")) { database in
            let doorbell = Doorbell(channel: "huddle_test_doorbell", database: database, logger: .quiet("doorbell-test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await doorbell.run() }
                defer { group.cancelAll() }
                // Rung with no one waiting, then waited on; again until the listener is listening.
                var woke = false
                for _ in 0..<300 where !woke {
                    try await database.transaction { sql in try await doorbell.ring(on: sql) }
                    let started = ContinuousClock.now
                    await doorbell.wait(upTo: .milliseconds(100))
                    woke = ContinuousClock.now - started < .milliseconds(50)
                }
                // Without the kept ring a wait lasts its 100 ms: returning in under 50 ms is the ring.
                #expect(woke)
            }
        }
    }
}
