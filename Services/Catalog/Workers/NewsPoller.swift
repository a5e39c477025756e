import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServerContracts
import ServiceFeatures
import ServiceLifecycle
import ServiceStore

/// Polls NewsAPI-style feeds (`{"articles":[{source:{name},title,description,url,urlToImage,
/// publishedAt}]}`, read by `NewsAPIFeed`) and ingests what each finds, marked with its feed's country
/// and language; articles already known (by url) are dropped. A feed that fails is logged and tried
/// again next time, the others still read. Only the instance holding the `news` lease polls
/// (`LeasedPoll`), so replicas do not spend the feeds' allowance several times.
struct NewsPoller: Service {
    struct Settings: Sendable {
        var feeds: [Feed]
        var interval: Duration
    }

    /// One feed: its address, the sport its articles are about, and whom they are for.
    struct Feed: Sendable, Equatable {
        var url: String
        var sport: Sport
        var country: String?
        var language: String?

        init(url: String, sport: Sport, country: String? = nil, language: String? = nil) {
            self.url = url
            self.sport = sport
            self.country = country
            self.language = language
        }

        /// How logs name the feed: its audience and host, never its address, whose query holds the feed's key.
        var label: String { "\(country ?? "-")/\(language ?? "-") at \(URLComponents(string: url)?.host ?? "?")" }

        /// `country:language[:sport]=url`, as `catalog.news.feeds` lists them; nil when it is not one.
        init?(_ entry: String) {
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            let parts = entry[..<equals].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let url = String(entry[entry.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard (2...3).contains(parts.count), let country = NewsArticle.country(parts[0]),
                let language = NewsArticle.language(parts[1]), url.hasPrefix("http://") || url.hasPrefix("https://")
            else { return nil }
            let sport = parts.count == 3 ? Sport(rawValue: parts[2]) : .soccer
            guard let sport else { return nil }
            self.init(url: url, sport: sport, country: country, language: language)
        }
    }

    let settings: Settings
    let news: News
    let database: Database
    let poll: LeasedPoll
    let now: @Sendable () -> Date
    let httpClient: HTTPClient
    let logger: Logger

    func run() async throws {
        await database.repeatUntilShutdown {
            do {
                guard try await poll.isDue(at: now()) else { return poll.pause }
            } catch {
                if !Task.isCancelled { logger.warning("news: the poll lease could not be read: \(error)") }
                return poll.pause
            }
            for feed in settings.feeds where !Task.isCancelled {
                do {
                    let articles = try await fetch(feed)
                    guard !articles.isEmpty else { continue }
                    let result = try await news.ingest(NewsIngestRequest(articles: articles))
                    logger.info("news \(feed.label): \(result.inserted) new, \(result.duplicates) known")
                } catch {
                    if !Task.isCancelled { logger.warning("news feed \(feed.label) failed: \(error)") }
                }
            }
            return poll.pause
        }
    }

    func fetch(_ feed: Feed) async throws -> [NewsIngestRequest.Article] {
        let response = try await httpClient.callProvider("news", "feed", .toProvider(feed.url), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
        guard response.status == .ok else { throw FeedAnswered(status: Int(response.status.code)) }
        return try NewsAPIFeed.articles(from: Data(buffer: body), sport: feed.sport).map { article in
            var article = article
            article.country = feed.country
            article.language = feed.language
            return article
        }
    }

    struct FeedAnswered: Error {
        let status: Int
    }
}
