import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// News: ingested from providers (deduplicated by url), listed newest first, bookmarked by users.
struct News: Sendable {
    let database: Database
    let store: any NewsStore

    /// Articles an administrator publishes through the public API: the same rules as a feed's.
    func publish(_ request: NewsIngestRequest, by identity: Identity?) async throws -> NewsIngestResult {
        try Self.requirePublisher(identity)
        return try await ingest(request)
    }

    /// 403 unless `identity` is an administrator: only they publish.
    static func requirePublisher(_ identity: Identity?) throws {
        guard identity?.isAdministrator == true else { throw CommonError.forbidden("Only administrators publish news.") }
        try identity?.requireSecondFactorForStaffWork()
    }

    func ingest(_ request: NewsIngestRequest) async throws -> NewsIngestResult {
        guard NewsIngestRequest.count.contains(request.articles.count) else {
            throw CommonError.invalid("articles", "must hold 1 to \(NewsIngestRequest.count.upperBound) articles")
        }
        let errors = request.articles.enumerated().flatMap { index, article in
            article.problems(at: "articles[\(index)]").map { Problem.FieldError(field: $0.field, message: $0.message) }
        }
        try FieldRules.require(errors)
        let inserted = try await database.transaction { sql in
            var inserted = 0
            for article in request.articles {
                let record = NewsArticle(
                    id: ArticleID(), title: article.title.trimmingBlanks, summary: article.summary.trimmingBlanks, url: article.url,
                    imageUrl: article.imageUrl, source: article.source.trimmingBlanks, sport: article.sport,
                    publishedAt: article.publishedAt, country: article.country.flatMap(NewsArticle.country(_:)),
                    language: article.language.flatMap(NewsArticle.language(_:)))
                if try await store.insertIfNew(record, on: sql) { inserted += 1 }
            }
            return inserted
        }
        return NewsIngestResult(inserted: inserted, duplicates: request.articles.count - inserted)
    }

    func list(_ filter: NewsFilter, page: PageRequest, viewer: UserID?) async throws -> Page<NewsArticle> {
        let before = try TimeCursor(page)
        let rows = try await database.read { sql in
            try await markBookmarks(try await store.articles(filter, before: before, limit: page.limit + 1, on: sql), viewer, sql)
        }
        return page.page(rows) { TimeCursor(time: $0.publishedAt, id: $0.id).encoded }
    }

    func article(_ id: ArticleID, viewer: UserID?) async throws -> NewsArticle {
        let found = try await database.read { sql in
            try await markBookmarks(try await store.article(id, on: sql).map { [$0] } ?? [], viewer, sql).first
        }
        guard let found else { throw CommonError.missing(id) }
        return found
    }

    func setBookmark(_ id: ArticleID, saved: Bool, user: UserID) async throws {
        try await database.transaction { sql in
            guard try await store.article(id, on: sql) != nil else { throw CommonError.missing(id) }
            if saved {
                try await store.bookmark(id, for: user, on: sql)
            } else {
                try await store.removeBookmark(id, for: user, on: sql)
            }
        }
    }

    func bookmarks(of user: UserID, page: PageRequest) async throws -> Page<NewsArticle> {
        let before = try page.integerCursor()
        let rows = try await database.read { sql in try await store.bookmarks(of: user, before: before, limit: page.limit + 1, on: sql) }
        return page.page(rows, cursor: { PageRequest.cursor(String($0.1)) }, item: \.0)
    }

    private func markBookmarks(_ articles: [NewsArticle], _ viewer: UserID?, _ sql: any SQLDatabase) async throws -> [NewsArticle] {
        guard let viewer else { return articles }
        let saved = try await store.bookmarked(articles.map(\.id), by: viewer, on: sql)
        return articles.map { article in
            var article = article
            article.bookmarked = saved.contains(article.id)
            return article
        }
    }
}
