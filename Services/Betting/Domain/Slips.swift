import Contracts
import Foundation
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
