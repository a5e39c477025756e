import Contracts
import Foundation
import ServiceHTTP
import ServiceStore

/// Each user's draft ticket, priced with the current odds whenever it is read.
struct Slips: Sendable {
    let database: Database
    let store: any SlipStore
    let fixtures: Fixtures
    let settings: BettingSettings
    let now: @Sendable () -> Date

    func slip(of user: UserID) async throws -> Slip {
        let (picks, stake) = try await database.read { sql in
            (try await store.picks(of: user, on: sql), try await store.stake(of: user, on: sql))
        }
        let stored = try await database.read { sql in try await fixtures.store.fixtures(picks.map(\.fixture), held: false, on: sql) }
        return priced(picks.map { ($0.fixture, $0.pick) }, stake: stake, from: stored)
    }

    /// A slip priced and not kept: a guest's.
    func quote(_ request: SlipRequest) async throws -> Slip {
        priced(request.selections.map { ($0.fixtureId, $0.pick) }, stake: request.stake, from: try await known(request))
    }

    /// My slip replaced by `request`, whole, in one transaction; refused whole when a market is closed.
    func replace(with request: SlipRequest, for user: UserID) async throws -> Slip {
        let stored = try await known(request)
        for selection in request.selections where stored[selection.fixtureId].map({ !fixtures.shown($0).open }) == true {
            throw BettingError.fixtureStarted(selection.fixtureId)
        }
        try await database.transaction { sql in
            let at = now()
            try await store.clear(for: user, on: sql)
            for selection in request.selections {
                try await store.setPick(selection.pick, on: selection.fixtureId, for: user, at: at, on: sql)
            }
            if let stake = request.stake { try await store.setStake(stake, for: user, at: at, on: sql) }
        }
        return try await slip(of: user)
    }

    /// What needs no store, the same for a slip and a ticket: the stake's range (when there is one), the
    /// number of selections, one per fixture.
    static func check(stake: Int?, fixtures ids: [MatchID], settings: BettingSettings) throws {
        if let stake, !settings.stakes.contains(stake) { throw BettingError.stakeOutOfRange(settings.stakes) }
        guard ids.count <= settings.maxSelections else { throw BettingError.tooManySelections(max: settings.maxSelections) }
        var seen = Set<MatchID>()
        for id in ids where !seen.insert(id).inserted { throw BettingError.duplicateSelection(id) }
    }

    /// The request's fixtures, checked: each must be one (422 naming the selection otherwise).
    private func known(_ request: SlipRequest) async throws -> [MatchID: StoredFixture] {
        let ids = request.selections.map(\.fixtureId)
        try Self.check(stake: request.stake, fixtures: ids, settings: settings)
        let stored = try await database.read { sql in try await fixtures.store.fixtures(ids, held: false, on: sql) }
        if let missing = ids.firstIndex(where: { stored[$0] == nil }) {
            throw CommonError.invalid("selections[\(missing)].fixtureId", "is not a fixture")
        }
        return stored
    }

    /// Picks at the current odds; the totals count the open ones.
    private func priced(_ picks: [(MatchID, Pick)], stake: Int?, from stored: [MatchID: StoredFixture]) -> Slip {
        var selections: [Slip.Selection] = []
        for (id, pick) in picks {
            guard let found = stored[id] else { continue }
            let fixture = fixtures.shown(found)
            selections.append(
                Slip.Selection(
                    fixtureId: id, pick: pick, odds: fixture.odds?[pick], home: fixture.home.name, away: fixture.away.name,
                    kickoff: fixture.kickoff, open: fixture.open))
        }
        let odds = selections.filter(\.open).compactMap(\.odds)
        return Slip(
            selections: selections, stake: stake, currency: settings.currency, totalOdds: TicketMath.totalOdds(odds),
            potentialWinnings: odds.isEmpty ? 0 : TicketMath.winnings(stake: stake ?? 0, odds: odds, cap: settings.maxPayout))
    }

    func pick(_ pick: Pick, on id: MatchID, for user: UserID) async throws -> Slip {
        let fixture = try await fixtures.fixture(id)
        guard fixture.open else { throw BettingError.fixtureStarted(id) }
        try await database.transaction { sql in
            let picks = try await store.picks(of: user, on: sql)
            if !picks.contains(where: { $0.fixture == id }), picks.count >= settings.maxSelections {
                throw BettingError.tooManySelections(max: settings.maxSelections)
            }
            try await store.setPick(pick, on: id, for: user, at: now(), on: sql)
        }
        return try await slip(of: user)
    }

    func unpick(_ id: MatchID, for user: UserID) async throws -> Slip {
        try await database.transaction { sql in try await store.removePick(on: id, for: user, on: sql) }
        return try await slip(of: user)
    }

    func stake(_ stake: Int, for user: UserID) async throws -> Slip {
        guard settings.stakes.contains(stake) else { throw BettingError.stakeOutOfRange(settings.stakes) }
        try await database.transaction { sql in try await store.setStake(stake, for: user, at: now(), on: sql) }
        return try await slip(of: user)
    }

    func clear(for user: UserID) async throws -> Slip {
        try await database.transaction { sql in try await store.clear(for: user, on: sql) }
        return try await slip(of: user)
    }
}
