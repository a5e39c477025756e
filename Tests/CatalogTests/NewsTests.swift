import Contracts
import Foundation
import ServerContracts
import ServiceKitTesting
import Testing

@Suite("News and bookmarks")
struct NewsTests {
    static func article(_ n: Int, sport: Sport = .soccer, hoursAgo: Double? = nil) -> NewsIngestRequest.Article {
        NewsIngestRequest.Article(
            title: "Story \(n)", summary: "Summary \(n)", url: "https://news.example/\(n)", imageUrl: nil, source: "Huddle Wire",
            sport: sport, publishedAt: Date(timeIntervalSince1970: 1_790_000_000 - (hoursAgo ?? Double(n)) * 3600))
    }

    @Test("Ingest drops articles it already has, by url", arguments: TestStore.all)
    func dedupe(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let first = try await h.catalog.call(
                CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: [Self.article(1), Self.article(2)]))
            #expect(try first.decode(NewsIngestResult.self) == NewsIngestResult(inserted: 2, duplicates: 0))
            let again = try await h.catalog.call(
                CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: [Self.article(2), Self.article(3)]))
            #expect(try again.decode(NewsIngestResult.self) == NewsIngestResult(inserted: 1, duplicates: 1))
            #expect(try await h.catalog.call(CatalogAPI.news).decode(Page<NewsArticle>.self).items.count == 3)
            // Ingest is internal only.
            #expect(
                try await h.catalog.withoutCredential.call(
                    CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: [Self.article(4)])
                ).status == 401)
            var bad = Self.article(5)
            bad.url = "not a url"
            let invalid = try await h.catalog.call(CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: [bad]))
            #expect(invalid.status == 422 && invalid.problem?.errors?.first?.field == "articles[0].url")
        }
    }

    @Test("News lists newest first, filtered by sport, a page at a time", arguments: TestStore.all)
    func listing(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let articles =
                (1...5).map { Self.article($0) } + [Self.article(6, sport: .volleyball, hoursAgo: 0)]
                // Two stories published at the same instant still page without loss or repeats.
                + [
                    NewsIngestRequest.Article(
                        title: "Story 7", summary: "", url: "https://news.example/7", imageUrl: nil, source: "Wire", sport: .soccer,
                        publishedAt: Self.article(3).publishedAt)
                ]
            _ = try await h.catalog.call(CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: articles))
            var titles: [String] = []
            var cursor: String?
            repeat {
                let page = try await h.catalog.call(CatalogAPI.news, query: Query.sport(.soccer) + Query.limit(2) + Query.cursor(cursor))
                    .decode(Page<NewsArticle>.self)
                titles += page.items.map(\.title)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(titles.count == 6)
            #expect(Set(titles) == ["Story 1", "Story 2", "Story 3", "Story 4", "Story 5", "Story 7"])
            #expect(titles.prefix(2) == ["Story 1", "Story 2"] && titles.suffix(2) == ["Story 4", "Story 5"])
            let all = try await h.catalog.call(CatalogAPI.news, query: Query.limit(1)).decode(Page<NewsArticle>.self)
            #expect(all.items.first?.title == "Story 6")
            #expect(try await h.catalog.call(CatalogAPI.news, rawQuery: "sport=curling").status == 422)
        }
    }

    @Test("Bookmarks are per user, idempotent, and listed most recent first", arguments: TestStore.all)
    func bookmarks(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            _ = try await h.catalog.call(
                CatalogAPI.Internal.ingestNews, body: NewsIngestRequest(articles: (1...3).map { Self.article($0) }))
            let items = try await h.catalog.call(CatalogAPI.news).decode(Page<NewsArticle>.self).items
            let reader = try await h.player()
            let other = try await h.player()
            for article in [items[2], items[0], items[0]] {
                #expect(try await h.catalog.call(CatalogAPI.bookmark, article.id, token: reader.accessToken).status == 204)
            }
            let saved = try await h.catalog.call(CatalogAPI.bookmarks, token: reader.accessToken).decode(Page<NewsArticle>.self)
            #expect(saved.items.map(\.id) == [items[0].id, items[2].id])
            #expect(try await h.catalog.call(CatalogAPI.bookmarks, token: other.accessToken).decode(Page<NewsArticle>.self).items.isEmpty)
            #expect(
                try await h.catalog.call(CatalogAPI.article, items[0].id, token: reader.accessToken).decode(NewsArticle.self).bookmarked
                    == true)
            #expect(
                try await h.catalog.call(CatalogAPI.article, items[0].id, token: other.accessToken).decode(NewsArticle.self).bookmarked
                    == false)
            #expect(try await h.catalog.call(CatalogAPI.article, items[0].id).decode(NewsArticle.self).bookmarked == nil)

            for _ in 0..<2 {
                #expect(try await h.catalog.call(CatalogAPI.removeBookmark, items[0].id, token: reader.accessToken).status == 204)
            }
            let after = try await h.catalog.call(CatalogAPI.bookmarks, token: reader.accessToken).decode(Page<NewsArticle>.self)
            #expect(after.items.map(\.id) == [items[2].id])
            #expect(try await h.catalog.call(CatalogAPI.bookmark, ArticleID(), token: reader.accessToken).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.bookmarks).status == 401)
        }
    }
}
