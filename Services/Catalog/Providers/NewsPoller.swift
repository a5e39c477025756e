import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceClients
import ServiceKit
import ServiceLifecycle

/// The provider adapter: polls a NewsAPI-style feed (`{"articles":[{source:{name},title,description,url,
/// urlToImage,publishedAt}]}`) and hands what it finds to catalog's internal ingest endpoint, which
/// drops articles it already has (by url). A feed that fails is logged and tried again next time.
struct NewsPoller: Service {
    struct Settings: Sendable {
        var feedURL: String
        var sport: Sport
        var interval: Duration
    }

    let settings: Settings
    let dependencies: ServiceDependencies

    func run() async throws {
        let ingest = InternalClient(.catalog, dependencies: dependencies, timeout: .seconds(10))
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let articles = try await fetch()
                    let result = try await ingest.call(CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: articles))
                    dependencies.logger.info("news: \(result.inserted) new, \(result.duplicates) known")
                } catch {
                    if Task.isCancelled { return }
                    dependencies.logger.warning("news feed \(settings.feedURL) failed: \(error)")
                }
                try? await Task.sleep(for: settings.interval)
            }
        }
    }

    func fetch() async throws -> [NewsIngestRequest.Article] {
        let response = try await dependencies.providerClient.execute(HTTPClientRequest(url: settings.feedURL), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
        guard response.status == .ok else { throw FeedAnswered(status: Int(response.status.code)) }
        return try NewsAPIFeed.articles(from: Data(buffer: body), sport: settings.sport)
    }

    struct FeedAnswered: Error {
        let status: Int
    }
}

/// Reading a NewsAPI-style answer. Pure, so the mapping is tested without a network.
enum NewsAPIFeed {
    private struct Answer: Decodable {
        struct Article: Decodable {
            struct Source: Decodable { let name: String? }
            let source: Source?
            let title: String?
            let description: String?
            let url: String?
            let urlToImage: String?
            let publishedAt: String?
        }
        let articles: [Article]
    }

    /// Articles with a title, a url and a readable date that keep the rules of an article (texts
    /// clipped to their lengths, an image whose address breaks them dropped); others are skipped, so
    /// one odd item never costs the batch.
    static func articles(from data: Data, sport: Sport) throws -> [NewsIngestRequest.Article] {
        typealias Article = NewsIngestRequest.Article
        let answer = try JSONDecoder().decode(Answer.self, from: data)
        let dates = ISO8601DateFormatter()
        return answer.articles.compactMap { item in
            guard let title = item.title?.trimmingBlanks, title != "[Removed]", let url = item.url,
                let published = item.publishedAt.flatMap(dates.date(from:))
            else { return nil }
            let image = item.urlToImage.flatMap { Article.address.problem($0) == nil ? $0 : nil }
            let article = Article(
                title: clip(title, Article.title), summary: clip(item.description ?? "", Article.summary), url: url, imageUrl: image,
                source: clip(item.source?.name ?? "Unknown", Article.source), sport: sport, publishedAt: published)
            return article.problems(at: "").isEmpty ? article : nil
        }
    }

    private static func clip(_ text: String, _ rule: TextRule) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(rule.length.upperBound)))
    }
}
