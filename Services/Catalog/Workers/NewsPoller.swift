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

/// Polls a NewsAPI-style feed (`{"articles":[{source:{name},title,description,url,urlToImage,
/// publishedAt}]}`, read by `NewsAPIFeed`) and ingests what it finds; articles already known (by url)
/// are dropped. A feed that fails is logged and tried again next time. Only the instance holding the
/// `news` lease polls (`LeasedPoll`), so replicas do not spend the feed's allowance several times.
struct NewsPoller: Service {
    struct Settings: Sendable {
        var feedURL: String
        var sport: Sport
        var interval: Duration
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
                let result = try await news.ingest(NewsIngestRequest(articles: try await fetch()))
                logger.info("news: \(result.inserted) new, \(result.duplicates) known")
            } catch {
                if !Task.isCancelled { logger.warning("news feed \(settings.feedURL) failed: \(error)") }
            }
            return poll.pause
        }
    }

    func fetch() async throws -> [NewsIngestRequest.Article] {
        let response = try await httpClient.callProvider("news", "feed", .toProvider(settings.feedURL), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
        guard response.status == .ok else { throw FeedAnswered(status: Int(response.status.code)) }
        return try NewsAPIFeed.articles(from: Data(buffer: body), sport: settings.sport)
    }

    struct FeedAnswered: Error {
        let status: Int
    }
}
