import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceKit
import ServiceLifecycle

/// Polls a NewsAPI-style feed (`{"articles":[{source:{name},title,description,url,urlToImage,
/// publishedAt}]}`, read by `NewsAPIFeed`) and ingests what it finds; articles already known (by url)
/// are dropped. A feed that fails is logged and tried again next time. Only the instance holding the
/// `news` lease polls, so replicas do not spend the feed's allowance several times. Every instance
/// asks for the lease every `FeedLease.heartbeat`, the holder renewing it, so another takes over within
/// a lease's length (`FeedLease.takeover`) of the holder dying, and polls at once.
struct NewsPoller: Service {
    struct Settings: Sendable {
        var feedURL: String
        var sport: Sport
        var interval: Duration
    }

    let settings: Settings
    let news: News
    let database: Database
    let lease: FeedLease
    let now: @Sendable () -> Date
    let httpClient: HTTPClient
    let logger: Logger

    func run() async throws {
        // When this instance last polled; a new holder polls at once.
        let lastPolled = NIOLockedValueBox<Date?>(nil)
        let pause = min(FeedLease.heartbeat, settings.interval)
        await database.repeatUntilShutdown {
            do {
                let time = now()
                guard try await lease.acquire(at: time) else {
                    lastPolled.withLockedValue { $0 = nil }
                    return pause
                }
                if let last = lastPolled.withLockedValue({ $0 }), time.timeIntervalSince(last) < settings.interval.seconds {
                    return pause
                }
                lastPolled.withLockedValue { $0 = time }
                let result = try await news.ingest(NewsIngestRequest(articles: try await fetch()))
                logger.info("news: \(result.inserted) new, \(result.duplicates) known")
            } catch {
                if !Task.isCancelled { logger.warning("news feed \(settings.feedURL) failed: \(error)") }
            }
            return pause
        }
    }

    func fetch() async throws -> [NewsIngestRequest.Article] {
        let response = try await httpClient.execute(HTTPClientRequest(url: settings.feedURL), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
        guard response.status == .ok else { throw FeedAnswered(status: Int(response.status.code)) }
        return try NewsAPIFeed.articles(from: Data(buffer: body), sport: settings.sport)
    }

    struct FeedAnswered: Error {
        let status: Int
    }
}
