import Contracts
import Foundation
import ServerContracts

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
