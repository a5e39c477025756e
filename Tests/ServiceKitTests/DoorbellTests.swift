import Foundation
import Logging
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
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
                let seen = doorbell.bell.rings
                let waiter = Task { await doorbell.bell.wait(upTo: .seconds(60), since: seen) }
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

    @Test("a ring while a loop looked for work wakes it at once; one before it looked does not")
    func ringSinceSeen() async throws {
        let bell = Bell()
        let seen = bell.rings
        bell.ring()
        let started = ContinuousClock.now
        await bell.wait(upTo: .seconds(60), since: seen)
        #expect(ContinuousClock.now - started < .seconds(30))
        // Seen already: the wait lasts its whole timeout.
        let quiet = ContinuousClock.now
        await bell.wait(upTo: .milliseconds(200), since: bell.rings)
        #expect(ContinuousClock.now - quiet >= .milliseconds(200))
    }

    @Test("every loop waiting on one bell wakes at its ring, not only the first")
    func everyWaiterWakes() async throws {
        let bell = Bell()
        let seen = bell.rings
        let waiters = (0..<3).map { _ in Task { await bell.wait(upTo: .seconds(60), since: seen) } }
        let started = ContinuousClock.now
        bell.ring()
        for waiter in waiters { await waiter.value }
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
