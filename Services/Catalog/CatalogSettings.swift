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
    /// `catalog.weather.timeout.ms` (1500), `catalog.weather.cache.ms` (600000); `catalog.news.url` (a
    /// NewsAPI-style feed; no polling when absent), `catalog.news.sport` (`soccer`), `catalog.news.poll.ms`
    /// (900000).
    init(reader: ConfigReader) {
        weather = WeatherProvider.Settings(
            baseURL: reader.text("catalog.weather.url", default: "https://api.open-meteo.com"),
            timeout: reader.milliseconds("catalog.weather.timeout.ms", default: 1500),
            cacheLifetime: reader.milliseconds("catalog.weather.cache.ms", default: 600_000))
        if let feed = reader.text("catalog.news.url"), !feed.isEmpty {
            news = NewsPoller.Settings(
                feedURL: feed, sport: Sport(rawValue: reader.text("catalog.news.sport", default: Sport.soccer.rawValue)) ?? .soccer,
                interval: reader.milliseconds("catalog.news.poll.ms", default: 900_000))
        }
    }
}
