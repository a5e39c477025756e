import Contracts
import Hummingbird
import ServiceKit

/// `/v1/news/...`: anyone reads; bookmarks belong to the signed-in user.
struct NewsController {
    let news: News

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.get { request, context in
            JSONResponse(
                try await news.list(
                    sport: try request.query("sport", as: Sport.self), page: try PageRequest(request), viewer: context.identity?.userID))
        }
        let signedIn = routes.authenticated()
        signedIn.get("bookmarks") { request, context in
            JSONResponse(try await news.bookmarks(of: context.userID, page: try PageRequest(request)))
        }
        routes.get(":id") { _, context in
            JSONResponse(try await news.article(try articleID(context.parameters), viewer: context.identity?.userID))
        }
        signedIn.put(":id/bookmark") { _, context in
            try await news.setBookmark(try articleID(context.parameters), saved: true, user: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.delete(":id/bookmark") { _, context in
            try await news.setBookmark(try articleID(context.parameters), saved: false, user: context.userID)
            return HTTPResponse.Status.noContent
        }
        return routes
    }

    private func articleID(_ parameters: Parameters) throws -> ArticleID {
        try parameters.id(as: ArticleID.self, missing: "No article with id \(parameters.get("id") ?? "").")
    }
}
