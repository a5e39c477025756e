import Contracts
import Foundation
import Hummingbird
import NIOHTTP1
import ServiceKit

/// `/v1/games/...`. Every route needs a signed-in user; `Games` enforces privacy and roles.
struct GamesController {
    let games: Games

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let signedIn = routes.authenticated()
        signedIn.post { request, context in
            let body = try await request.decodeJSON(CreateGameRequest.self, context: context)
            return JSONResponse(try await games.create(body, by: context.userID, requestID: context.requestID), status: .created)
        }
        signedIn.get { request, context in
            try request.requireMineScope()
            return JSONResponse(
                try await games.mine(
                    context.userID, window: try request.query("when", as: GameWindow.self) ?? .upcoming,
                    from: try position(request), page: try PageRequest(request)))
        }
        signedIn.get(":id") { request, context in
            JSONResponse(try await games.game(try gameID(context), viewer: context.userID, from: try position(request)))
        }
        signedIn.patch(":id") { request, context in
            let body = try await request.decodeJSON(UpdateGameRequest.self, context: context)
            return JSONResponse(try await games.update(try gameID(context), with: body, by: context.userID))
        }
        signedIn.delete(":id") { _, context in
            try await games.cancel(try gameID(context), by: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.get(":id/roster") { _, context in
            let entries = try await games.roster(try gameID(context), viewer: context.userID, requestID: context.requestID)
            return JSONResponse(Page(items: entries, nextCursor: nil))
        }
        signedIn.put(":id/status") { request, context in
            let body = try await request.decodeJSON(SetRosterStatusRequest.self, context: context)
            return JSONResponse(try await games.answer(try gameID(context), user: context.userID, status: body.status))
        }
        signedIn.post(":id/join") { _, context in JSONResponse(try await games.join(try gameID(context), user: context.userID)) }
        signedIn.post(":id/requests/:userId/approve") { _, context in
            JSONResponse(try await games.decide(try gameID(context), request: try userID(context), approve: true, by: context.userID))
        }
        signedIn.post(":id/requests/:userId/decline") { _, context in
            _ = try await games.decide(try gameID(context), request: try userID(context), approve: false, by: context.userID)
            return HTTPResponse.Status.noContent
        }
        signedIn.post(":id/invites") { request, context in
            let body = try await request.decodeJSON(InviteRequest.self, context: context)
            return JSONResponse(
                try await games.invite(body.userIds, to: try gameID(context), by: context.userID, requestID: context.requestID))
        }
        signedIn.put(":id/subs") { request, context in
            let body = try await request.decodeJSON(SubstitutesRequest.self, context: context)
            return JSONResponse(try await games.requestSubstitutes(body.needed, for: try gameID(context), by: context.userID))
        }
        return routes
    }

    /// `?lat=&lng=`: where the caller is, for `distanceMeters`. Both or neither.
    private func position(_ request: Request) throws -> Coordinates? {
        let lat = try request.query("lat", as: Double.self), lng = try request.query("lng", as: Double.self)
        guard lat != nil || lng != nil else { return nil }
        var errors: [Problem.FieldError] = []
        if lat == nil { errors.append(.init(field: "lat", message: "is required with lng")) }
        if lng == nil { errors.append(.init(field: "lng", message: "is required with lat")) }
        try FieldRules.require(errors)
        let position = Coordinates(lat: lat!, lng: lng!)
        try FieldRules.require(FieldRules.coordinates(position, field: ""))
        return position
    }

    private func gameID(_ context: AuthenticatedContext) throws -> GameID {
        try context.parameters.id(as: GameID.self, missing: "No game with id \(context.parameters.get("id") ?? "").")
    }

    private func userID(_ context: AuthenticatedContext) throws -> UserID {
        try context.parameters.id("userId", as: UserID.self, missing: "No player with id \(context.parameters.get("userId") ?? "").")
    }
}
