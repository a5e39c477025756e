import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/news/...`: anyone reads; bookmarks belong to the signed-in user; administrators publish.
struct NewsController: Controller {
    let news: News

    func register(on router: Router<HuddleRequestContext>) {
        router.on(CatalogAPI.news) { request, context in
            try await news.list(
                sport: try request.query(Query.sport), page: try PageRequest(request), viewer: context.identity?.userID)
        }
        router.on(CatalogAPI.bookmarks) { request, context in try await news.bookmarks(of: context.userID, page: try PageRequest(request)) }
        router.on(CatalogAPI.article) { _, context in
            try await news.article(try context.parameters.id(ArticleID.self), viewer: context.identity?.userID)
        }
        router.on(CatalogAPI.bookmark) { _, context in
            try await news.setBookmark(try context.parameters.id(ArticleID.self), saved: true, user: context.userID)
            return NoContent()
        }
        router.on(CatalogAPI.publishNews, authorizing: { try News.requirePublisher($0.identity) }) { body, _, context in
            try await news.publish(body, by: context.identity)
        }
        router.on(CatalogAPI.removeBookmark) { _, context in
            try await news.setBookmark(try context.parameters.id(ArticleID.self), saved: false, user: context.userID)
            return NoContent()
        }
    }
}
