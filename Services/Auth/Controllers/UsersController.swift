import Contracts
import Foundation
import Hummingbird
import ServiceKit
import SQLKit

/// `/v1/users/...`: profiles, follows and friend matching. Every route needs a signed-in user.
struct UsersController {
    let database: Database
    let users: any UserStore
    let follows: any FollowStore

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let signedIn = routes.authenticated()
        signedIn.get("me") { _, context in JSONResponse(try await me(context).myProfile) }
        signedIn.patch("me") { request, context in
            let body = try await request.decodeJSON(UpdateProfileRequest.self, context: context)
            return JSONResponse(try await update(context, with: body).myProfile)
        }
        signedIn.get("me/following") { request, context in
            try await list(request) { before, limit, sql in
                try await follows.following(of: context.userID, before: before, limit: limit, on: sql)
            }
        }
        signedIn.get("me/followers") { request, context in
            try await list(request) { before, limit, sql in
                try await follows.followers(of: context.userID, before: before, limit: limit, on: sql)
            }
        }
        signedIn.post("me/friends/match") { request, context in
            let body = try await request.decodeJSON(FriendMatchRequest.self, context: context)
            guard body.facebookIds.count <= 5000 else {
                throw CommonError.invalid("facebookIds", "must hold at most 5000 ids")
            }
            let found = try await database.read { sql in try await users.users(facebookIDs: body.facebookIds, on: sql) }
            let matches = found.filter { $0.id != context.userID }.compactMap { user in
                user.facebookID.map { FriendMatch(facebookId: $0, profile: user.publicProfile) }
            }
            return JSONResponse(FriendMatchResponse(items: matches))
        }
        signedIn.get(":id") { _, context in JSONResponse(try await profile(context).publicProfile) }
        signedIn.put(":id/follow") { _, context in
            let followee = try await profile(context)
            guard followee.id != context.userID else { throw AuthError.cannotFollowSelf }
            try await database.transaction { sql in try await follows.follow(context.userID, followee.id, on: sql) }
            return HTTPResponse.Status.noContent
        }
        signedIn.delete(":id/follow") { _, context in
            let followee = try await profile(context)
            try await database.transaction { sql in try await follows.unfollow(context.userID, followee.id, on: sql) }
            return HTTPResponse.Status.noContent
        }
        return routes
    }

    private func me(_ context: AuthenticatedContext) async throws -> User {
        guard let user = try await database.read({ sql in try await users.user(id: context.userID, on: sql) }) else {
            throw CommonError.unauthorized("This account no longer exists.")
        }
        return user
    }

    private func profile(_ context: AuthenticatedContext) async throws -> User {
        let raw = try context.parameters.require("id")
        guard let id = UserID(raw),
            let user = try await database.read({ sql in try await users.user(id: id, on: sql) })
        else { throw CommonError.notFound("No player with id \(raw).") }
        return user
    }

    private func update(_ context: AuthenticatedContext, with body: UpdateProfileRequest) async throws -> User {
        try AuthValidation.require(
            body.name.flatMap(AuthValidation.nameProblem), body.pictureUrl.flatMap { $0.flatMap(AuthValidation.pictureUrlProblem) })
        return try await database.transaction { sql in
            guard var user = try await users.user(id: context.userID, on: sql) else {
                throw CommonError.unauthorized("This account no longer exists.")
            }
            if let name = body.name { user.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }
            if let picture = body.pictureUrl { user.pictureUrl = picture }
            if let sports = body.sports {
                var seen = Set<Sport>()
                user.sports = sports.filter { seen.insert($0).inserted }
            }
            try await users.update(user, on: sql)
            try await ProfileEvents().published(user, on: sql)
            return user
        }
    }

    private func list(
        _ request: Request,
        fetch: @escaping @Sendable (Int64?, Int, any SQLDatabase) async throws -> [(User, Int64)]
    ) async throws -> JSONResponse<Page<PublicProfile>> {
        let page = try PageRequest(request)
        let before = try page.integerCursor()
        let rows = try await database.read { sql in try await fetch(before, page.limit + 1, sql) }
        return JSONResponse(page.page(rows, cursor: { PageRequest.cursor(String($0.1)) }, item: { $0.0.publicProfile }))
    }
}
