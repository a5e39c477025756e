import Configuration
import Foundation
import ServiceFeatures
import ServiceHTTP

/// Games' configuration, read once at start: what football matches are followed, and how often.
struct GamesSettings: Sendable {
    /// The provider's update period for matches in play: the live poll, and the `Cache-Control: max-age`
    /// of match answers.
    var livePoll: Duration
    /// How often today's and tomorrow's fixtures are listed again.
    var dayPoll: Duration
    /// API-Football v3; nil: no matches are polled.
    var provider: APIFootballClient.Settings?
    /// League ids followed; empty follows every league the provider reports.
    var leagues: Set<Int>
    /// How long a match in play may go unreported before it is marked silent.
    var silentAfter: Duration
    /// `games.remind.every.ms` (6 h): how often a game's non-responders may be reminded on demand.
    var remindEvery: TimeInterval

    /// Keys: `games.matches.provider.url` (API-Football v3's base URL, `https://v3.football.api-sports.io`;
    /// no polling when absent), `games.matches.provider.key` (`x-apisports-key`),
    /// `games.matches.provider.timeout.ms` (5000), `games.matches.leagues` (comma-separated ids),
    /// `games.matches.poll.live.ms` (15000), `games.matches.poll.day.ms` (600000),
    /// `games.matches.silent.after.ms` (600000: ten minutes, forty live polls).
    init(reader: ConfigReader) {
        livePoll = reader.milliseconds("games.matches.poll.live.ms", default: 15_000)
        dayPoll = reader.milliseconds("games.matches.poll.day.ms", default: 600_000)
        provider = APIFootballClient.Settings(reader: reader, prefix: "games.matches.provider")
        leagues = Set(reader.list("games.matches.leagues").compactMap { Int($0) })
        silentAfter = reader.milliseconds("games.matches.silent.after.ms", default: 600_000)
        remindEvery = TimeInterval(max(1, reader.integer("games.remind.every.ms", default: 21_600_000))) / 1000
    }
}
