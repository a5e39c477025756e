import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// The Bet tab's fixtures: games' matches (from its events) with the provider's odds.
struct Fixtures: Sendable {
    let database: Database
    let store: any FixtureStore
    let settler: Settler
    /// What a deleted account leaves (auth's `auth.user.deleted`).
    let erasure: AccountErasure
    let settings: BettingSettings
    let now: @Sendable () -> Date

    func list(kickoff: Range<Date>) async throws -> Page<Fixture> {
        let stored = try await database.read { sql in try await store.fixtures(kickoff: kickoff, on: sql) }
        return Page(items: stored.map(shown), nextCursor: nil)
    }

    func fixture(_ id: MatchID) async throws -> Fixture {
        guard let stored = try await database.read({ sql in try await store.fixture(id, on: sql) }) else {
            throw CommonError.notFound("No fixture with id \(id).")
        }
        return shown(stored)
    }

    /// The fixture as a client sees it now: with whether its market is open.
    func shown(_ stored: StoredFixture) -> Fixture {
        var fixture = stored.fixture
        fixture.open = Market.isOpen(status: fixture.status, kickoff: fixture.kickoff, now: now()) && fixture.odds != nil
        return fixture
    }

    /// Applies games' `games.match.updated` / `games.match.finished` (in the inbox's transaction):
    /// the fixture's facts, then the legs it decides. A postponed match gets its deadline; one that
    /// kicks off again before it keeps its legs.
    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        try await BettingEvents.handlers.step(for: event)?(self, sql)
    }

    typealias Step = @Sendable (Fixtures, any SQLDatabase) async throws -> Void

    func matchChanged(_ changed: MatchEvent.MatchChanged, on sql: any SQLDatabase) async throws {
        let match = changed.match
        let previous = try await store.fixture(match.id, on: sql)
        // A fixture reported ended stays ended, whatever a later report says (`Market.accepts`).
        if let previous, !Market.accepts(match.status, after: previous.fixture.status) { return }
        var voidAt = previous?.voidAt
        if match.status == .postponed {
            voidAt = voidAt ?? Settlement.postponedDeadline(kickoff: match.kickoff, allowance: settings.postponedAllowance)
        } else if let silentSince = match.silentSince {
            // A match the provider stopped reporting in play is held to a postponed one's terms: void
            // unless it is reported again within the allowance.
            voidAt = voidAt ?? Settlement.postponedDeadline(kickoff: silentSince, allowance: settings.postponedAllowance)
        } else if let deadline = voidAt, MatchStatus.inPlay.contains(match.status) || match.kickoff <= deadline {
            // Re-dated within the allowance, or reported in play again.
            voidAt = nil
        }
        guard try await store.save(match, providerFixtureID: changed.providerFixtureId, voidAt: voidAt, on: sql) else { return }
        try await settler.settle(match.id, status: match.status, regularTime: match.fulltime, on: sql)
    }

    /// A deleted account: its wallet, slip and tickets are erased (`AccountErasure`).
    func forget(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await erasure.erase(user, on: sql)
    }
}
