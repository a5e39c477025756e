import Contracts
import Foundation
import Logging
import ServiceFeatures
import ServiceLifecycle
import ServiceStore

/// Keeps the odds of fixtures whose market is open (kicking off within `horizon`) as the provider
/// prices them, every `interval`; a change is a new odds version. Only the instance holding the
/// `odds` lease polls (`LeasedPoll`). While the provider is down or rate-limits, the last odds stay.
struct OddsPoller: Service {
    struct Settings: Sendable {
        var horizon: TimeInterval = 2 * 86_400
    }

    let settings: Settings
    let client: OddsClient
    let database: Database
    let store: any FixtureStore
    let poll: LeasedPoll
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        await database.repeatUntilShutdown {
            await tick()
            return poll.pause
        }
    }

    /// One round over the open fixtures, when this instance holds the lease and the round is due.
    func tick() async {
        let at = now()
        do {
            guard try await poll.isDue(at: at) else { return }
            let open = try await database.read { sql in
                try await store.pricing(from: at, until: at.addingTimeInterval(settings.horizon), on: sql)
            }
            for stored in open {
                guard let odds = try await client.odds(ofFixture: stored.providerFixtureID), odds != stored.fixture.odds else { continue }
                try await database.transaction { sql in try await store.price(stored.fixture.id, odds, at: now(), on: sql) }
            }
        } catch OddsClient.Failure.rateLimited(let seconds) {
            logger.warning("odds provider: rate-limited; next call in \(seconds) s")
            poll.postpone(until: at.addingTimeInterval(TimeInterval(max(seconds, 1))))
        } catch {
            logger.warning("odds provider: \(error); the last odds stay")
        }
    }
}
