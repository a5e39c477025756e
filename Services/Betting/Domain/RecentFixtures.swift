import Contracts
import ServiceStore

/// Fixtures as this instance last read them, for pricing a ticket without reading the store first.
/// The statement that places the ticket checks each price and market again, so an entry gone stale
/// only sends that ticket the long way (and is forgotten); entries are read again after `maxAge`,
/// so prices moved by another instance's poller are soon seen here too.
struct RecentFixtures: Sendable {
    private let database: Database
    private let store: any FixtureStore
    private let reads: RecentReads<MatchID, StoredFixture>

    init(database: Database, store: any FixtureStore, maxAge: Duration) {
        self.database = database
        self.store = store
        self.reads = RecentReads(maxAge: maxAge)
    }

    /// The fixtures of `ids` that exist, read from the store when not known or older than `maxAge`.
    func fixtures(_ ids: [MatchID]) async throws -> [MatchID: StoredFixture] {
        var known: [MatchID: StoredFixture] = [:]
        for id in ids { known[id] = reads.fresh(id) }
        let missing = ids.filter { known[$0] == nil }
        guard !missing.isEmpty else { return known }
        let store = self.store
        let read = try await database.read { sql in try await store.fixtures(missing, held: false, on: sql) }
        reads.remember(read)
        return known.merging(read) { _, fresh in fresh }
    }

    func forget(_ ids: [MatchID]) { reads.forget(ids) }
}
