import Contracts
import NIOConcurrencyHelpers
import ServiceKit

/// Fixtures as this instance last read them, for pricing a ticket without reading the store first.
/// The statement that places the ticket checks each price and market again, so an entry gone stale
/// only sends that ticket the long way (and is forgotten); entries are read again after `maxAge`,
/// so prices moved by another instance's poller are soon seen here too.
final class RecentFixtures: Sendable {
    private struct Entry {
        let fixture: StoredFixture
        let readAt: ContinuousClock.Instant
    }

    private let database: Database
    private let store: any FixtureStore
    private let maxAge: Duration
    private let entries = NIOLockedValueBox<[MatchID: Entry]>([:])

    init(database: Database, store: any FixtureStore, maxAge: Duration) {
        self.database = database
        self.store = store
        self.maxAge = maxAge
    }

    /// The fixtures of `ids` that exist, read from the store when not known or older than `maxAge`.
    func fixtures(_ ids: [MatchID]) async throws -> [MatchID: StoredFixture] {
        let now = ContinuousClock.now
        var known: [MatchID: StoredFixture] = [:]
        entries.withLockedValue { entries in
            for id in ids { if let entry = entries[id], now - entry.readAt < maxAge { known[id] = entry.fixture } }
        }
        let missing = ids.filter { known[$0] == nil }
        guard !missing.isEmpty else { return known }
        let store = self.store
        let read = try await database.read { sql in try await store.fixtures(missing, held: false, on: sql) }
        entries.withLockedValue { entries in
            if entries.count > 10_000 { entries = entries.filter { now - $0.value.readAt < maxAge } }
            for (id, fixture) in read { entries[id] = Entry(fixture: fixture, readAt: now) }
        }
        return known.merging(read) { _, fresh in fresh }
    }

    func forget(_ ids: [MatchID]) {
        entries.withLockedValue { entries in for id in ids { entries[id] = nil } }
    }
}
