import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/news/...`: anyone reads; bookmarks belong to the signed-in user; administrators publish.
struct NewsController: Controller {
    let news: News

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.news, use: listNews)
        router.on(CatalogAPI.bookmarks, use: bookmarks)
        router.on(CatalogAPI.article, use: article)
        router.on(CatalogAPI.bookmark, use: bookmark)
        router.on(CatalogAPI.publishNews, authorizing: { try News.requirePublisher($0.identity) }, use: publishNews)
        router.on(CatalogAPI.removeBookmark, use: removeBookmark)
    }

    /// `GET /v1/news`
    @Sendable func listNews(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<NewsArticle> {
        let filter = NewsFilter(
            sport: try request.query(Query.sport), country: try request.query(CatalogAPI.newsCountry),
            language: try request.query(CatalogAPI.newsLanguage))
        return try await news.list(filter, page: try PageRequest(request), viewer: context.identity?.userID)
    }

    /// `GET /v1/news/bookmarks`
    @Sendable func bookmarks(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<NewsArticle> {
        try await news.bookmarks(of: context.userID, page: try PageRequest(request))
    }

    /// `GET /v1/news/{id}`
    @Sendable func article(_ request: Request, _ context: HuddleRequestContext) async throws -> NewsArticle {
        try await news.article(try context.parameters.id(ArticleID.self), viewer: context.identity?.userID)
    }

    /// `PUT /v1/news/{id}/bookmark`
    @Sendable func bookmark(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await news.setBookmark(try context.parameters.id(ArticleID.self), saved: true, user: context.userID)
        return NoContent()
    }

    /// `POST /v1/news`
    @Sendable func publishNews(_ body: NewsIngestRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> NewsIngestResult
    {
        try await news.publish(body, by: context.identity)
    }

    /// `DELETE /v1/news/{id}/bookmark`
    @Sendable func removeBookmark(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await news.setBookmark(try context.parameters.id(ArticleID.self), saved: false, user: context.userID)
        return NoContent()
    }
}
