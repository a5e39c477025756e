import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/rounds/...` (the live socket is `LiveController`) and `/v1/users/{id}/stats`.
struct RoundsController: Controller {
    let rounds: Rounds

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.startRound, use: startRound)
        router.on(GamesAPI.myRounds, conditional: myRounds)
        router.on(GamesAPI.round, conditional: round)
        router.on(
            GamesAPI.score, authorizing: { try await rounds.requirePlayer(of: try $0.parameters.id(RoundID.self), user: $0.userID) },
            use: score)
        router.on(GamesAPI.clearScore, use: clearScore)
        router.on(
            GamesAPI.addRoundPlayer,
            authorizing: { try await rounds.requirePlayer(of: try $0.parameters.id(RoundID.self), user: $0.userID) }, use: addPlayer)
        router.on(GamesAPI.finishRound, use: finishRound)
        router.on(GamesAPI.stats, use: stats)
    }

    /// `POST /v1/rounds`
    @Sendable func startRound(_ body: StartRoundRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Scorecard {
        try await rounds.start(body, by: context.userID, requestID: context.requestID)
    }

    /// `GET /v1/rounds`
    @Sendable func myRounds(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<Scorecard>> {
        let page = try await rounds.mine(context.userID, status: try request.query(GamesAPI.roundStatus), page: try PageRequest(request))
        return Versioned(page, parts: page.items.map(Self.tagPart) + [page.nextCursor ?? ""])
    }

    /// `GET /v1/rounds/{id}`
    @Sendable func round(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Scorecard> {
        let card = try await rounds.card(try context.parameters.id(RoundID.self), viewer: context.userID)
        return Versioned(card, parts: [Self.tagPart(card)])
    }

    /// A card is named by its version, which every change of it raises.
    static func tagPart(_ card: Scorecard) -> String { "\(card.id)/\(card.version)" }

    /// `PUT /v1/rounds/{id}/scores`
    @Sendable func score(_ body: ScoreUpdate, _ request: Request, _ context: AuthenticatedContext) async throws -> Scorecard {
        try await rounds.score(body, in: try context.parameters.id(RoundID.self), by: context.userID)
    }

    /// `DELETE /v1/rounds/{id}/scores/{playerId}/{hole}`
    @Sendable func clearScore(_ request: Request, _ context: AuthenticatedContext) async throws -> Scorecard {
        try await rounds.clear(
            try context.parameters.id(RoundPlayerID.self, at: "playerId"), hole: try context.parameters.integer(at: "hole"),
            in: try context.parameters.id(RoundID.self), by: context.userID)
    }

    /// `POST /v1/rounds/{id}/players`
    @Sendable func addPlayer(_ body: RoundPlayerRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Scorecard {
        try await rounds.addPlayer(body, to: try context.parameters.id(RoundID.self), by: context.userID, requestID: context.requestID)
    }

    /// `POST /v1/rounds/{id}/finish`
    @Sendable func finishRound(_ request: Request, _ context: AuthenticatedContext) async throws -> Scorecard {
        try await rounds.finish(try context.parameters.id(RoundID.self), by: context.userID)

    }

    /// `GET /v1/users/{id}/stats`
    @Sendable func stats(_ request: Request, _ context: AuthenticatedContext) async throws -> PlayerStats {
        try await rounds.stats(of: try context.parameters.id(UserID.self))
    }
}
