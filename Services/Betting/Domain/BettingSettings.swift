import Configuration
import Foundation
import ServiceFeatures
import ServiceHTTP

/// Betting's rules that are configuration, read once at start.
struct BettingSettings: Sendable {
    /// What a new wallet is opened with, in minor units.
    var grant: Int
    /// How often a wallet holding less than the grant may be topped up to it again.
    var refillEvery: TimeInterval = 7 * 24 * 3600
    var currency: String
    /// A ticket's stake, in minor units.
    var stakes: ClosedRange<Int>
    var maxSelections: Int
    /// The most a ticket pays (bookmakers cap winnings; it also keeps every amount within 64 bits).
    var maxPayout: Int
    /// How long a postponed match has to kick off again before its legs are void.
    var postponedAllowance: TimeInterval
    /// How often postponed fixtures past their deadline are voided.
    var postponedSweep: Duration = .seconds(60)
    /// How long an instance prices tickets from fixtures it read (each placement checks the prices
    /// again; see `Tickets.placeInOneStatement`).
    var fixturesReuse: Duration = .seconds(1)
    /// API-Football v3's odds; nil: no odds are polled.
    var oddsProvider: OddsClient.Settings?
    var oddsPoll: Duration = .seconds(60)

    /// Keys: `betting.wallet.grant` (default 100000: 1,000.00), `betting.wallet.refill.every.ms` (604800000: 7 days),
    /// `betting.wallet.currency` (EUR),
    /// `betting.stake.min` (100) and `.max` (100000), `betting.selections.max` (20), `betting.payout.max`
    /// (100000000), `betting.postponed.void.ms` (172800000: 48 hours), `betting.postponed.sweep.ms` (60000),
    /// `betting.fixtures.reuse.ms` (1000); `betting.odds.provider.url` (API-Football v3's base URL; no odds
    /// polling when absent), `betting.odds.provider.key` (`x-apisports-key`), `betting.odds.provider.timeout.ms`
    /// (5000), `betting.odds.poll.ms` (60000).
    init(reader: ConfigReader) throws {
        grant = reader.integer("betting.wallet.grant", default: 100_000)
        refillEvery = max(1, reader.milliseconds("betting.wallet.refill.every.ms", default: 604_800_000).seconds)
        currency = reader.text("betting.wallet.currency", default: "EUR")
        let minimum = reader.integer("betting.stake.min", default: 100)
        let maximum = reader.integer("betting.stake.max", default: 100_000)
        guard grant >= 0, minimum >= 1, maximum >= minimum else {
            throw MissingConfiguration(key: "betting.stake.min", hint: "grant ≥ 0 and 1 ≤ betting.stake.min ≤ betting.stake.max")
        }
        stakes = minimum...maximum
        maxSelections = max(1, reader.integer("betting.selections.max", default: 20))
        maxPayout = max(1, reader.integer("betting.payout.max", default: 100_000_000))
        postponedAllowance = reader.milliseconds("betting.postponed.void.ms", default: 172_800_000).seconds
        postponedSweep = reader.milliseconds("betting.postponed.sweep.ms", default: 60_000)
        fixturesReuse = reader.milliseconds("betting.fixtures.reuse.ms", default: 1000)
        oddsProvider = OddsClient.Settings(reader: reader, prefix: "betting.odds.provider")
        oddsPoll = reader.milliseconds("betting.odds.poll.ms", default: 60_000)
    }

    init(grant: Int, currency: String, stakes: ClosedRange<Int>, maxSelections: Int, maxPayout: Int, postponedAllowance: TimeInterval) {
        self.grant = grant
        self.currency = currency
        self.stakes = stakes
        self.maxSelections = maxSelections
        self.maxPayout = maxPayout
        self.postponedAllowance = postponedAllowance
    }
}
