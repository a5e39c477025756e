import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/rounds/...` (the live socket is `LiveController`) and `/v1/users/{id}/stats`.
struct RoundsController: Controller {
    let rounds: Rounds

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.startRound) { body, _, context in try await rounds.start(body, by: context.userID, requestID: context.requestID)
        }
        router.on(GamesAPI.myRounds) { request, context in
            try await rounds.mine(
                context.userID, status: try request.query(GamesAPI.roundStatus), page: try PageRequest(request))
        }
        router.on(GamesAPI.round) { _, context in try await rounds.card(try context.parameters.id(RoundID.self), viewer: context.userID) }
        router.on(GamesAPI.score, authorizing: { try await rounds.requirePlayer(of: try $0.parameters.id(RoundID.self), user: $0.userID) })
        {
            body, _, context in
            try await rounds.score(body, in: try context.parameters.id(RoundID.self), by: context.userID)
        }
        router.on(GamesAPI.finishRound) { _, context in try await rounds.finish(try context.parameters.id(RoundID.self), by: context.userID)
        }
        router.on(GamesAPI.stats) { _, context in try await rounds.stats(of: try context.parameters.id(UserID.self)) }
    }
}
