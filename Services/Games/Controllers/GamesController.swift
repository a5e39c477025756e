import Contracts
import Foundation
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/games/...`. Every route needs a signed-in user; `Games` enforces privacy and roles.
struct GamesController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.createGame) { body, _, context in try await games.create(body, by: context.userID, requestID: context.requestID)
        }
        router.on(GamesAPI.myGames) { request, context in
            try await games.mine(
                context.userID, window: try request.query(GamesAPI.gamesWhen), from: try request.query(Query.position),
                page: try PageRequest(request))
        }
        router.on(GamesAPI.game) { request, context in
            try await games.game(try context.parameters.id(GameID.self), viewer: context.userID, from: try request.query(Query.position))
        }
        let organizer: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await games.requireOrganizer(of: try $0.parameters.id(GameID.self), user: $0.userID)
        }
        router.on(GamesAPI.updateGame, authorizing: organizer) { body, _, context in
            try await games.update(try context.parameters.id(GameID.self), with: body, by: context.userID)
        }
        router.on(GamesAPI.cancelGame) { _, context in
            try await games.cancel(try context.parameters.id(GameID.self), by: context.userID)
            return NoContent()
        }
        router.on(GamesAPI.roster) { _, context in
            Page(
                items: try await games.roster(try context.parameters.id(GameID.self), viewer: context.userID, requestID: context.requestID),
                nextCursor: nil)
        }
        router.on(GamesAPI.setStatus) { body, _, context in
            try await games.answer(try context.parameters.id(GameID.self), user: context.userID, status: body.status)
        }
        router.on(GamesAPI.joinGame) { _, context in try await games.join(try context.parameters.id(GameID.self), user: context.userID) }
        router.on(GamesAPI.approveGameRequest) { _, context in
            try await games.decide(
                try context.parameters.id(GameID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: true,
                by: context.userID)
        }
        router.on(GamesAPI.declineGameRequest) { _, context in
            _ = try await games.decide(
                try context.parameters.id(GameID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: false,
                by: context.userID)
            return NoContent()
        }
        router.on(GamesAPI.inviteToGame, authorizing: organizer) { body, _, context in
            try await games.invite(
                body.userIds, to: try context.parameters.id(GameID.self), by: context.userID, requestID: context.requestID)
        }
        router.on(GamesAPI.askForSubstitutes, authorizing: organizer) { body, _, context in
            try await games.requestSubstitutes(body.needed, for: try context.parameters.id(GameID.self), by: context.userID)
        }
    }
}

/// `/internal/...` of games.
struct GamesInternalController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.Internal.gameSnapshot) { request, _ in try await games.snapshot(page: try PageRequest(request)) }
    }
}

/// `/internal/moderation/...` of games: a game as a reporter sees it (its name and description, and
/// its organiser as the one an action is against).
struct GamesModerationController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .games)) { request, context in
            _ = try context.parameters.subjectType(heldBy: .games)
            let game = try await games.game(
                try context.parameters.id(GameID.self), viewer: try request.query(ModerationAPI.Internal.viewer), from: nil)
            let text = [game.displayName, game.description].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
            return SubjectSnapshot(
                content: SubjectContent(
                    type: .game, id: SubjectID(game.id.uuid), ownerId: game.organizerId, ownerName: nil, text: text, at: game.createdAt))
        }
    }
}
