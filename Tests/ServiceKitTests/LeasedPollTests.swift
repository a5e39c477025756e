import Foundation
import ServiceKitTesting
import ServiceStore
import Testing

/// One poller per deployment: instances of a module share a lease row, and the time is given, so the
/// takeover is shown without waiting for it.
@Suite("Leased polls")
struct LeasedPollTests {
    static let start = Date(timeIntervalSince1970: 1_795_359_600)

    @Test(
        "of two instances only the holder polls, once an interval; when it stops renewing, the other polls once its lease lapses",
        arguments: TestStore.all)
    func oneInstanceAtATime(store: TestStore) async throws {
        try await store.withDatabase(logger: .quiet("leased-poll")) { database in
            try await database.migrate([.feedLeases(version: 1)], logger: .quiet("leased-poll"))
            func instance() -> LeasedPoll {
                LeasedPoll(lease: FeedLease(database: database, name: "odds", duration: FeedLease.takeover), interval: .seconds(60))
            }
            let first = instance(), second = instance()
            func at(_ seconds: TimeInterval) -> Date { Self.start.addingTimeInterval(seconds) }

            #expect(try await first.isDue(at: at(0)))
            #expect(try await !second.isDue(at: at(0)))
            // Every few seconds both ask; the holder renews and is not due again before its interval.
            for seconds in stride(from: 3.0, through: 57, by: 3) {
                #expect(try await !first.isDue(at: at(seconds)), "\(seconds)")
                #expect(try await !second.isDue(at: at(seconds)), "\(seconds)")
            }
            #expect(try await first.isDue(at: at(60)))

            // The first stops (its last renewal at 60 s); the second takes over once the lease lapses, and polls at once.
            #expect(try await !second.isDue(at: at(63)))
            #expect(try await !second.isDue(at: at(69)))
            #expect(try await second.isDue(at: at(71)))
            // Back again, the first finds the lease held.
            #expect(try await !first.isDue(at: at(72)))
            #expect(try await !second.isDue(at: at(72)))
        }
    }

    @Test("a poll the provider asked to wait is not due before then")
    func postponed() async throws {
        try await TestStore.sqlite.withDatabase(logger: .quiet("leased-poll")) { database in
            try await database.migrate([.feedLeases(version: 1)], logger: .quiet("leased-poll"))
            let poll = LeasedPoll(lease: FeedLease(database: database, name: "odds", duration: FeedLease.takeover), interval: .seconds(1))
            #expect(try await poll.isDue(at: Self.start))
            poll.postpone(until: Self.start.addingTimeInterval(30))
            #expect(try await !poll.isDue(at: Self.start.addingTimeInterval(5)))
            #expect(try await poll.isDue(at: Self.start.addingTimeInterval(30)))
        }
    }
}
