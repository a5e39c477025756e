import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// `/v1/games/...`. Every route needs a signed-in user; `Games` enforces privacy and roles.
struct GamesController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.createGame) { body, _, context in try await games.create(body, by: context.userID, requestID: context.requestID)
        }
        router.on(GamesAPI.myGames) { request, context in
            try request.requireMineScope()
            return try await games.mine(
                context.userID, window: try request.query("when", as: GameWindow.self) ?? .upcoming, from: try position(request),
                page: try PageRequest(request))
        }
        router.on(GamesAPI.game) { request, context in
            try await games.game(try context.parameters.gameID(), viewer: context.userID, from: try position(request))
        }
        router.on(GamesAPI.updateGame) { body, _, context in
            try await games.update(try context.parameters.gameID(), with: body, by: context.userID)
        }
        router.on(GamesAPI.cancelGame) { _, context in
            try await games.cancel(try context.parameters.gameID(), by: context.userID)
            return NoContent()
        }
        router.on(GamesAPI.roster) { _, context in
            Page(
                items: try await games.roster(try context.parameters.gameID(), viewer: context.userID, requestID: context.requestID),
                nextCursor: nil)
        }
        router.on(GamesAPI.setStatus) { body, _, context in
            try await games.answer(try context.parameters.gameID(), user: context.userID, status: body.status)
        }
        router.on(GamesAPI.joinGame) { _, context in try await games.join(try context.parameters.gameID(), user: context.userID) }
        router.on(GamesAPI.approveGameRequest) { _, context in
            try await games.decide(
                try context.parameters.gameID(), request: try context.parameters.userID(), approve: true, by: context.userID)
        }
        router.on(GamesAPI.declineGameRequest) { _, context in
            _ = try await games.decide(
                try context.parameters.gameID(), request: try context.parameters.userID(), approve: false, by: context.userID)
            return NoContent()
        }
        router.on(GamesAPI.inviteToGame) { body, _, context in
            try await games.invite(body.userIds, to: try context.parameters.gameID(), by: context.userID, requestID: context.requestID)
        }
        router.on(GamesAPI.askForSubstitutes) { body, _, context in
            try await games.requestSubstitutes(body.needed, for: try context.parameters.gameID(), by: context.userID)
        }
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
}

/// `/internal/...` of games.
struct GamesInternalController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.Internal.gameSnapshot) { request, _ in try await games.snapshot(page: try PageRequest(request)) }
    }
}

/// Games' path ids, each with its one 404 wording.
extension Parameters {
    func gameID() throws -> GameID { try id(as: GameID.self, missing: "No game with id \(get("id") ?? "").") }
    func roundID() throws -> RoundID { try id(as: RoundID.self, missing: "No round with id \(get("id") ?? "").") }
    func userID() throws -> UserID { try id("userId", as: UserID.self, missing: "No player with id \(get("userId") ?? "").") }
    func playerID() throws -> UserID { try id(as: UserID.self, missing: "No player with id \(get("id") ?? "").") }
    func matchID() throws -> MatchID { try id(as: MatchID.self, missing: "No match with id \(get("id") ?? "").") }
}
