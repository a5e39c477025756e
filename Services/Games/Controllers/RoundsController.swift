import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/rounds/...` over HTTP (the live socket is `LiveController`) and `/v1/users/{id}/stats`.
struct RoundsController {
    let rounds: Rounds

    var endpoints: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        let signedIn = routes.authenticated()
        signedIn.post { request, context in
            let body = try await request.decodeJSON(StartRoundRequest.self, context: context)
            return JSONResponse(try await rounds.start(body, by: context.userID, requestID: context.requestID), status: .created)
        }
        signedIn.get { request, context in
            try request.requireMineScope()
            return JSONResponse(
                try await rounds.mine(
                    context.userID, status: try request.query("status", as: RoundStatus.self), page: try PageRequest(request)))
        }
        signedIn.get(":id") { _, context in JSONResponse(try await rounds.card(try roundID(context), viewer: context.userID)) }
        signedIn.put(":id/scores") { request, context in
            let body = try await request.decodeJSON(ScoreUpdate.self, context: context)
            return JSONResponse(try await rounds.score(body, in: try roundID(context), by: context.userID))
        }
        signedIn.post(":id/finish") { _, context in JSONResponse(try await rounds.finish(try roundID(context), by: context.userID)) }
        // Reached only when the WebSocket upgrade was refused or not asked for: say why.
        signedIn.get(":id/live") { _, context -> Response in
            _ = try await rounds.card(try roundID(context), viewer: context.userID)
            throw CommonError.http(status: 426, message: "Connect to this path with a WebSocket.")
        }
        return routes
    }

    var stats: RouteCollection<HuddleRequestContext> {
        let routes = RouteCollection(context: HuddleRequestContext.self)
        routes.authenticated().get(":id/stats") { _, context in
            let user = try context.parameters.id(as: UserID.self, missing: "No player with id \(context.parameters.get("id") ?? "").")
            return JSONResponse(try await rounds.stats(of: user))
        }
        return routes
    }

    private func roundID(_ context: AuthenticatedContext) throws -> RoundID {
        try context.parameters.id(as: RoundID.self, missing: "No round with id \(context.parameters.get("id") ?? "").")
    }
}
