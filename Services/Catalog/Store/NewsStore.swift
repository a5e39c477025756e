import Contracts
import Foundation
import SQLKit
import ServiceStore

/// News articles, newest first, and each user's bookmarks.
protocol NewsStore: Sendable {
    /// Inserts the article unless one with the same url exists; returns whether it was new.
    func insertIfNew(_ article: NewsArticle, on sql: any SQLDatabase) async throws -> Bool
    func article(_ id: ArticleID, on sql: any SQLDatabase) async throws -> NewsArticle?
    /// Newest first; `before` is the position of the last article of the previous page.
    func articles(_ filter: NewsFilter, before: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [NewsArticle]
    /// Idempotent.
    func bookmark(_ article: ArticleID, for user: UserID, on sql: any SQLDatabase) async throws
    func removeBookmark(_ article: ArticleID, for user: UserID, on sql: any SQLDatabase) async throws
    /// Which of `articles` the user saved.
    func bookmarked(_ articles: [ArticleID], by user: UserID, on sql: any SQLDatabase) async throws -> Set<ArticleID>
    /// The user's saved articles, most recently saved first, with each bookmark's position.
    func bookmarks(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(NewsArticle, Int64)]
}

/// Which articles a news list shows: of a sport, for a country, in a language (each when set).
struct NewsFilter: Sendable, Equatable {
    var sport: Sport?
    var country: String?
    var language: String?
}

struct SQLNewsStore: NewsStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    static let columns = ["id", "title", "summary", "url", "image_url", "source", "sport", "published_at", "country", "language"]

    func insertIfNew(_ article: NewsArticle, on sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.insert(into: "news_articles").columns(Self.columns + ["ingested_at"])
            .values(
                SQLBind(article.id.description), SQLBind(article.title), SQLBind(article.summary), SQLBind(article.url),
                SQLBind(article.imageUrl), SQLBind(article.source), SQLBind(article.sport.rawValue), SQLBind(article.publishedAt),
                SQLBind(article.country), SQLBind(article.language), SQLBind(now())
            )
            .ignoringConflicts(with: ["url"]).returning("id").all()
        return !inserted.isEmpty
    }

    func article(_ id: ArticleID, on sql: any SQLDatabase) async throws -> NewsArticle? {
        try await select(on: sql).where("id", .equal, SQLBind(id.description)).first().map(Self.decode)
    }

    func articles(_ filter: NewsFilter, before: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [NewsArticle] {
        var query = select(on: sql)
        if let sport = filter.sport { query = query.where("sport", .equal, SQLBind(sport.rawValue)) }
        if let country = filter.country { query = query.where("country", .equal, SQLBind(country)) }
        if let language = filter.language { query = query.where("language", .equal, SQLBind(language)) }
        if let before {
            query = query.where(before.continuation(time: SQLColumn("published_at"), id: SQLColumn("id"), descending: true))
        }
        return try await query.orderBy("published_at", .descending).orderBy("id", .descending).limit(limit).all()
            .map(Self.decode)
    }

    func bookmark(_ article: ArticleID, for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "bookmarks").columns("user_id", "article_id", "created_at")
            .values(SQLBind(user.description), SQLBind(article.description), SQLBind(now()))
            .ignoringConflicts(with: ["user_id", "article_id"]).run()
    }

    func removeBookmark(_ article: ArticleID, for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "bookmarks")
            .where("user_id", .equal, SQLBind(user.description)).where("article_id", .equal, SQLBind(article.description)).run()
    }

    func bookmarked(_ articles: [ArticleID], by user: UserID, on sql: any SQLDatabase) async throws -> Set<ArticleID> {
        guard !articles.isEmpty else { return [] }
        return Set(
            try await sql.select().column("article_id").from("bookmarks").where("user_id", .equal, SQLBind(user.description))
                .where("article_id", .in, SQLBind.group(articles.map(\.description))).all()
                .map { try $0.typedID("article_id") })
    }

    func bookmarks(of user: UserID, before: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(NewsArticle, Int64)] {
        var query = sql.select().columns(Self.columns.map { SQLColumn($0, table: "news_articles") })
            .column(SQLColumn("seq", table: "bookmarks")).from("bookmarks")
            .join("news_articles", on: SQLColumn("id", table: "news_articles"), .equal, SQLColumn("article_id", table: "bookmarks"))
            .where(SQLColumn("user_id", table: "bookmarks"), .equal, SQLBind(user.description))
        if let before { query = query.where(SQLColumn("seq", table: "bookmarks"), .lessThan, SQLBind(before)) }
        return try await query.orderBy(SQLColumn("seq", table: "bookmarks"), SQLDirection.descending).limit(limit).all().map { row in
            var article = try Self.decode(row)
            article.bookmarked = true
            return (article, try row.decode(column: "seq", as: Int64.self))
        }
    }

    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns(Self.columns.map { SQLColumn($0) }).from("news_articles")
    }

    static func decode(_ row: any SQLRow) throws -> NewsArticle {
        NewsArticle(
            id: try row.typedID("id"), title: try row.decode(column: "title", as: String.self),
            summary: try row.decode(column: "summary", as: String.self), url: try row.decode(column: "url", as: String.self),
            imageUrl: try row.decode(column: "image_url", as: String?.self), source: try row.decode(column: "source", as: String.self),
            sport: try row.enumValue("sport"), publishedAt: try row.decode(column: "published_at", as: Date.self),
            country: try row.decode(column: "country", as: String?.self), language: try row.decode(column: "language", as: String?.self))
    }
}
