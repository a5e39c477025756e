import Contracts
import Crypto
import Foundation
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/games/...`. Every route but an answer from a push needs a signed-in user; `Games` enforces privacy and roles.
struct GamesController: Controller {
    let games: Games
    let reminders: RsvpReminders
    /// Notify's public key, which signs the answer tokens its pushes carry (`RSVPGrant`).
    let notifyKey: Curve25519.Signing.PublicKey?
    let now: @Sendable () -> Date

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.createGame, use: createGame)
        router.on(GamesAPI.myGames, conditional: myGames)
        router.on(GamesAPI.venueGames, use: venueGames)
        router.on(GamesAPI.game, conditional: getGame)
        let organizer: @Sendable (AuthenticatedContext) async throws -> Void = {
            try await games.requireOrganizer(of: try $0.parameters.id(GameID.self), user: $0.userID)
        }
        router.on(GamesAPI.updateGame, authorizing: organizer, use: updateGame)
        router.on(GamesAPI.cancelGame, use: cancelGame)
        router.on(GamesAPI.remind, use: remind)
        router.on(GamesAPI.roster, conditional: roster)
        router.on(GamesAPI.setStatus, use: setStatus)
        router.on(GamesAPI.rsvp, use: rsvp)
        router.on(GamesAPI.joinGame, use: joinGame)
        router.on(GamesAPI.approveGameRequest, use: approveGameRequest)
        router.on(GamesAPI.declineGameRequest, use: declineGameRequest)
        router.on(GamesAPI.inviteToGame, authorizing: organizer, use: inviteToGame)
        router.on(GamesAPI.askForSubstitutes, authorizing: organizer, use: askForSubstitutes)
    }

    /// `POST /v1/games`
    @Sendable func createGame(_ body: CreateGameRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Game {
        try await games.create(body, by: context.userID, requestID: context.requestID)

    }

    /// `GET /v1/games`
    @Sendable func myGames(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<Game>> {
        let page = try await games.mine(
            context.userID, window: try request.query(GamesAPI.gamesWhen), from: try request.query(Query.position),
            page: try PageRequest(request))
        return Versioned(page, parts: try await games.tagParts(of: page.items) + [page.nextCursor ?? ""])
    }

    /// `GET /v1/venues/{id}/games`
    @Sendable func venueGames(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Game> {
        try await games.atVenue(
            try context.parameters.id(VenueID.self), viewer: context.userID, window: try request.query(GamesAPI.venueGamesWhen).window,
            from: try request.query(Query.position), page: try PageRequest(request), requestID: context.requestID)
    }

    /// `GET /v1/games/{id}`
    @Sendable func getGame(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Game> {
        let game = try await games.game(
            try context.parameters.id(GameID.self), viewer: context.userID, from: try request.query(Query.position))
        return Versioned(game, parts: try await games.tagParts(of: [game]), maxAgeSeconds: 60)
    }

    /// `PATCH /v1/games/{id}`
    @Sendable func updateGame(_ body: UpdateGameRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Game {
        try await games.update(
            try context.parameters.id(GameID.self), with: body, scope: try request.query(GamesAPI.seriesScope), by: context.userID)
    }

    /// `DELETE /v1/games/{id}`
    @Sendable func cancelGame(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await games.cancel(try context.parameters.id(GameID.self), scope: try request.query(GamesAPI.seriesScope), by: context.userID)
        return NoContent()
    }

    /// `POST /v1/games/{id}/remind`
    @Sendable func remind(_ request: Request, _ context: AuthenticatedContext) async throws -> RemindResult {
        try await reminders.remind(try context.parameters.id(GameID.self), by: context.userID)
    }

    /// `GET /v1/games/{id}/roster`
    /// The players' names come from auth, which keeps no version the tag could name: they are parts of it.
    @Sendable func roster(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<RosterEntry>> {
        let id = try context.parameters.id(GameID.self)
        let entries = try await games.roster(id, viewer: context.userID, requestID: context.requestID)
        return Versioned(
            Page(items: entries, nextCursor: nil),
            parts: try await games.tagParts(ofGames: [id]) + entries.map { "\($0.userId)=\($0.name)" })
    }

    /// `PUT /v1/games/{id}/status`
    @Sendable func setStatus(_ body: SetRosterStatusRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> RosterPlace
    {
        try await games.answer(try context.parameters.id(GameID.self), user: context.userID, status: body.status)
    }

    /// `POST /v1/games/{id}/rsvp`: no session; the token names the player.
    @Sendable func rsvp(_ body: RSVPAnswer, _ request: Request, _ context: HuddleRequestContext) async throws -> NoContent {
        let game = try context.parameters.id(GameID.self)
        guard let notifyKey, let player = await RSVPGrant.player(in: body.token, for: game, notifyKey: notifyKey, now: now()) else {
            throw GamesError.invalidRSVPToken
        }
        _ = try await games.answer(game, user: player, status: body.status)
        return NoContent()
    }

    /// `POST /v1/games/{id}/join`
    @Sendable func joinGame(_ request: Request, _ context: AuthenticatedContext) async throws -> RosterPlace {
        try await games.join(try context.parameters.id(GameID.self), user: context.userID)
    }

    /// `POST /v1/games/{id}/requests/{userId}/approve`
    @Sendable func approveGameRequest(_ request: Request, _ context: AuthenticatedContext) async throws -> RosterPlace {
        try await games.decide(
            try context.parameters.id(GameID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: true,
            by: context.userID)
    }

    /// `POST /v1/games/{id}/requests/{userId}/decline`
    @Sendable func declineGameRequest(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        _ = try await games.decide(
            try context.parameters.id(GameID.self), request: try context.parameters.id(UserID.self, at: "userId"), approve: false,
            by: context.userID)
        return NoContent()
    }

    /// `POST /v1/games/{id}/invites`
    @Sendable func inviteToGame(_ body: InviteRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> InviteResult {
        try await games.invite(
            body.userIds, to: try context.parameters.id(GameID.self), by: context.userID, requestID: context.requestID)
    }

    /// `PUT /v1/games/{id}/subs`
    @Sendable func askForSubstitutes(_ body: SubstitutesRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Game {
        try await games.requestSubstitutes(body.needed, for: try context.parameters.id(GameID.self), by: context.userID)
    }
}

/// `/internal/...` of games.
struct GamesInternalController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.Internal.gameSnapshot, use: gameSnapshot)
    }

    /// `GET /internal/snapshots/games`
    @Sendable func gameSnapshot(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<Game> {
        try await games.snapshot(page: try PageRequest(request))
    }
}

/// `/internal/moderation/...` of games: a game as a reporter sees it (its name and description, and
/// its organiser as the one an action is against).
struct GamesModerationController: Controller {
    let games: Games

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.Internal.subject(at: .games), use: subject)
    }

    /// `GET /internal/moderation/subjects/{type}/{id}`
    @Sendable func subject(_ request: Request, _ context: HuddleRequestContext) async throws -> SubjectSnapshot {
        _ = try context.parameters.subjectType(heldBy: .games)
        let game = try await games.game(
            try context.parameters.id(GameID.self), viewer: try request.query(ModerationAPI.Internal.viewer), from: nil)
        let text = [game.displayName, game.description].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
        return SubjectSnapshot(
            content: SubjectContent(
                type: .game, id: SubjectID(game.id.uuid), ownerId: game.organizerId, ownerName: nil, text: text, at: game.createdAt))
    }
}
