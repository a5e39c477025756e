import Configuration
import Contracts
import Foundation
import ServiceHTTP

/// Catalog's configuration, read once at start.
struct CatalogSettings: Sendable {
    var weather: WeatherProvider.Settings
    /// The news feed to poll; nil: none is polled.
    var news: NewsPoller.Settings?

    /// Keys: `catalog.weather.url` (an Open-Meteo style provider, default `https://api.open-meteo.com`),
    /// `catalog.weather.timeout.ms` (1500), `catalog.weather.cache.ms` (600000); the NewsAPI-style feeds
    /// to poll: `catalog.news.feeds`, comma-separated `country:language[:sport]=url` entries (an Italian
    /// feed is `it:it=https://…`), and `catalog.news.url` with `catalog.news.sport` (`soccer`) for one
    /// feed of no country; `catalog.news.poll.ms` (900000). No feed: no polling.
    init(reader: ConfigReader) throws {
        weather = WeatherProvider.Settings(
            baseURL: reader.text("catalog.weather.url", default: "https://api.open-meteo.com"),
            timeout: reader.milliseconds("catalog.weather.timeout.ms", default: 1500),
            cacheLifetime: reader.milliseconds("catalog.weather.cache.ms", default: 600_000))
        var feeds: [NewsPoller.Feed] = []
        if let url = reader.text("catalog.news.url"), !url.isEmpty {
            feeds.append(
                NewsPoller.Feed(
                    url: url, sport: Sport(rawValue: reader.text("catalog.news.sport", default: Sport.soccer.rawValue)) ?? .soccer))
        }
        for entry in reader.list("catalog.news.feeds") {
            guard let feed = NewsPoller.Feed(entry) else {
                throw MissingConfiguration(
                    key: "catalog.news.feeds", hint: "'\(entry)' is not country:language[:sport]=url, e.g. it:it=https://feed.example/it")
            }
            feeds.append(feed)
        }
        if !feeds.isEmpty {
            news = NewsPoller.Settings(feeds: feeds, interval: reader.milliseconds("catalog.news.poll.ms", default: 900_000))
        }
    }
}
