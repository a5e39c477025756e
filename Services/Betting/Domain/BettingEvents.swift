import Contracts
import SQLKit
import ServerContracts

/// The events betting takes from other modules: games' matches, which `Fixtures` prices and settles, and
/// deleted accounts.
enum BettingEvents {
    static let handlers = EventHandlers<Fixtures.Step> { on in
        on.on(MatchEvent.updated, MatchEvent.finished) { changed, _ in
            { fixtures, sql in try await fixtures.matchChanged(changed, on: sql) }
        }
        on.on(AuthEvent.accountDeleted) { deleted, _ in { fixtures, sql in try await fixtures.forget(deleted.userId, on: sql) } }
    }
}
