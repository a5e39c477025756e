/// Games' operations: games and rosters, disc golf rounds with their live card, player stats.
public enum GamesAPI {
    public static let createGame = Endpoint<SignedIn, CreateGameRequest, Game>(
        .post, "/v1/games", owner: .games,
        summary: "Plan a game: team (team manager; the team's place and attributes are defaults; members are invited), "
            + "league (league manager, two of its teams), pickup (anyone; needs location and attributes); with repeat, a weekly "
            + "series at the same local time (at most 52 games, each with the series' seriesId), answered with its first game",
        status: 201, problems: [.forbidden, .dependencyUnavailable, .contentRefused], traits: .idempotent)
    public static let myGames = Endpoint<SignedIn, NoBody, Page<Game>>(
        .get, "/v1/games", owner: .games,
        summary: "My games from my teams and pick-ups: upcoming soonest first, past most recent first, pending = waiting for an answer",
        query: [Query.mineScope, gamesWhen, Query.position] + Query.paging, traits: .conditional)
    public static let gamesWhen = Query.choice("when", fallback: GameWindow.upcoming)
    public static let venueGames = Endpoint<SignedIn, NoBody, Page<Game>>(
        .get, "/v1/venues/{id}/games", owner: .games,
        summary: "The games played at a venue whose place I may see (public ones, and those I take part in; where the location "
            + "gate is on, with the location entitlement): upcoming soonest first, past most recent first",
        query: [venueGamesWhen, Query.position] + Query.paging, problems: [.dependencyUnavailable])
    public static let venueGamesWhen = Query.choice("when", fallback: VenueGamesWindow.upcoming)
    public static let game = Endpoint<SignedIn, NoBody, Game>(
        .get, "/v1/games/{id}", owner: .games,
        summary: "A game; the exact location only for participants and public games (where the location gate is on, for "
            + "participants and holders of the location entitlement), others get distanceMeters",
        query: [Query.position], traits: .conditional)
    public static let updateGame = Endpoint<SignedIn, UpdateGameRequest, Game>(
        .patch, "/v1/games/{id}", owner: .games,
        summary: "Change a game (organiser only); more capacity seats the waiting list. In a series, scope=following changes the "
            + "later scheduled games too, a new start moving each by the same days and to the same local time",
        query: [seriesScope], problems: [.forbidden, .gameCancelled, .gameStarted, .contentRefused])
    public static let cancelGame = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/games/{id}", owner: .games,
        summary: "Cancel a game (organiser only); it stays readable with status cancelled. In a series, scope=following cancels "
            + "the later games too",
        query: [seriesScope], problems: [.forbidden])
    public static let seriesScope = Query.choice("scope", fallback: SeriesScope.this)
    public static let remind = Endpoint<SignedIn, NoBody, RemindResult>(
        .post, "/v1/games/{id}/remind", owner: .games,
        summary: "Remind the players who have not answered (invited), at once, with a push (the organiser or the team's manager); "
            + "once every games.remind.every (6 h) a game, 429 with Retry-After within it",
        status: 202, problems: [.forbidden, .gameCancelled, .gameStarted, .rateLimited])
    public static let roster = Endpoint<SignedIn, NoBody, Page<RosterEntry>>(
        .get, "/v1/games/{id}/roster", owner: .games,
        summary: "Players with their status and waiting-list position; pending requests only for the organiser",
        problems: [.dependencyUnavailable], traits: .conditional)
    public static let setStatus = Endpoint<SignedIn, SetRosterStatusRequest, RosterPlace>(
        .put, "/v1/games/{id}/status", owner: .games,
        summary: "Set my own answer: going (waiting list when full), maybe, notGoing (withdraws a pending request)",
        problems: [.forbidden, .gameCancelled, .gameStarted])
    public static let rsvp = Endpoint<Anyone, RSVPAnswer, NoContent>(
        .post, "/v1/games/{id}/rsvp", owner: .games,
        summary: "Answer from a push without a session: the push's data.rsvpToken is good for its player and game until kickoff "
            + "(401 INVALID_TOKEN otherwise); the roster's rules apply as for PUT …/status",
        status: 204, problems: [.invalidRSVPToken, .forbidden, .gameCancelled, .gameStarted])
    public static let joinGame = Endpoint<SignedIn, NoBody, RosterPlace>(
        .post, "/v1/games/{id}/join", owner: .games,
        summary: "Join: public → going (or waitlisted when full), protected → pending, private → invited players only; "
            + "while substitutes are wanted, anyone who can see the game comes in as one. Where the join gate is on, only with "
            + "the join entitlement, unless invited",
        problems: [.forbidden, .gameCancelled, .gameStarted, .entitlementRequired], traits: .idempotent)
    public static let approveGameRequest = Endpoint<SignedIn, NoBody, RosterPlace>(
        .post, "/v1/games/{id}/requests/{userId}/approve", owner: .games, summary: "Approve a request to join (organiser only)",
        problems: [.forbidden, .gameCancelled, .gameStarted], traits: .idempotent)
    public static let declineGameRequest = Endpoint<SignedIn, NoBody, NoContent>(
        .post, "/v1/games/{id}/requests/{userId}/decline", owner: .games, summary: "Decline a request to join (organiser only)",
        problems: [.forbidden, .gameCancelled, .gameStarted], traits: .idempotent)
    public static let inviteToGame = Endpoint<SignedIn, InviteRequest, InviteResult>(
        .post, "/v1/games/{id}/invites", owner: .games, summary: "Invite players (organiser only); a pending asker is seated",
        problems: [.forbidden, .gameCancelled, .gameStarted, .dependencyUnavailable], traits: .idempotent)
    public static let askForSubstitutes = Endpoint<SignedIn, SubstitutesRequest, Game>(
        .put, "/v1/games/{id}/subs", owner: .games, summary: "Ask for substitutes (organiser only); needed 0 clears the call",
        problems: [.forbidden, .gameCancelled, .gameStarted])

    // MARK: Rounds
    public static let startRound = Endpoint<SignedIn, StartRoundRequest, Scorecard>(
        .post, "/v1/rounds", owner: .games,
        summary: "Start a disc golf round on a course: holes and pars are copied, every hole starts unplayed (strokes null: "
            + "an app that shows par must write it); you play, with the listed players and guests. A course not in the list is "
            + "given whole (course: {name, holes}) instead of courseId, and played as your own (courseUnlisted)",
        status: 201, problems: [.dependencyUnavailable], traits: .idempotent)
    public static let addRoundPlayer = Endpoint<SignedIn, RoundPlayerRequest, Scorecard>(
        .post, "/v1/rounds/{id}/players", owner: .games,
        summary: "Add a registered player (userId) or a guest (guestName) to a round under way (any of its players); their holes "
            + "start unplayed, and every device on the live card gets a playerAdded frame",
        problems: [.roundFinished, .dependencyUnavailable])
    public static let myRounds = Endpoint<SignedIn, NoBody, Page<Scorecard>>(
        .get, "/v1/rounds", owner: .games, summary: "My rounds, most recent first",
        query: [Query.mineScope, roundStatus] + Query.paging, traits: .conditional)
    public static let roundStatus = Query.choice("status", RoundStatus.self)
    public static let round = Endpoint<SignedIn, NoBody, Scorecard>(
        .get, "/v1/rounds/{id}", owner: .games, summary: "The scorecard (players of the round only; 404 for others)",
        traits: .conditional)
    public static let score = Endpoint<SignedIn, ScoreUpdate, Scorecard>(
        .put, "/v1/rounds/{id}/scores", owner: .games,
        summary: "Set one player's strokes on one hole; bumps the version. With expectedVersion, a card that moved on is "
            + "a 409 VERSION_CONFLICT whose body also carries the card (ScoreConflict)",
        problems: [.roundFinished, .versionConflict], otherAnswers: [409: ScoreConflict.self])
    public static let clearScore = Endpoint<SignedIn, NoBody, Scorecard>(
        .delete, "/v1/rounds/{id}/scores/{playerId}/{hole}", owner: .games,
        summary: "Clear one player's strokes on one hole (not played); bumps the version. Scores and clears of one cell are applied "
            + "in the order the server receives them, and the last applied is the cell's value on every device",
        pathParameters: ["hole": .integer(1...Hole.maxNumber)], problems: [.roundFinished, .validationFailed])
    public static let finishRound = Endpoint<SignedIn, NoBody, Scorecard>(
        .post, "/v1/rounds/{id}/finish", owner: .games, summary: "Finish the round (any player); it becomes read-only",
        traits: .idempotent)
    public static let liveRound = Endpoint<SignedIn, NoBody, LiveMessage>(
        .get, "/v1/rounds/{id}/live", owner: .games,
        summary: "WebSocket: every change of the card. With afterVersion, first exactly the changes after it, otherwise the "
            + "whole card; then live changes. A device may score on it",
        status: 101, query: [afterVersion], problems: [.webSocketRequired], traits: .webSocket, deviceSends: ScoreUpdate.self)
    /// `?afterVersion=`: the last version a device has, for what it missed.
    public static let afterVersion = Query.integer("afterVersion", 0...Int(Int32.max))
    public static let stats = Endpoint<SignedIn, NoBody, PlayerStats>(
        .get, "/v1/users/{id}/stats", owner: .games, summary: "A player's disc golf statistics from completed rounds")

    // MARK: Professional matches
    public static let matches = Endpoint<Anyone, NoBody, Page<Match>>(
        .get, "/v1/matches", owner: .games,
        summary: "Professional football matches kicking off on a day (UTC; today by default), soonest first, all in one page. "
            + "live=true: only those in play (any day); league narrows to one league",
        query: [matchesDay, matchesLive, matchesLeague], traits: .conditional)
    public static let matchesDay = Query.day("date", description: "YYYY-MM-DD, UTC; today when absent")
    public static let matchesLive = Query.flag("live")
    public static let matchesLeague = Query.integer("league", 1...Int(Int32.max))
    public static let match = Endpoint<Anyone, NoBody, Match>(
        .get, "/v1/matches/{id}", owner: .games, summary: "One match with its events, lineups and statistics", traits: .conditional)
    public static let liveMatch = Endpoint<Anyone, NoBody, MatchChange>(
        .get, "/v1/matches/{id}/live", owner: .games,
        summary: "WebSocket: every change of the match. With afterVersion, first each version after it, otherwise the match "
            + "as it is; then live changes",
        status: 101, query: [afterVersion], problems: [.webSocketRequired], traits: .webSocket)

    public static let all: [APIOperation] = [
        createGame.operation, myGames.operation, venueGames.operation, game.operation, updateGame.operation, cancelGame.operation,
        remind.operation,
        roster.operation,
        setStatus.operation, rsvp.operation, joinGame.operation, approveGameRequest.operation, declineGameRequest.operation,
        inviteToGame.operation, askForSubstitutes.operation, startRound.operation, addRoundPlayer.operation, myRounds.operation,
        round.operation,
        score.operation, clearScore.operation, finishRound.operation, liveRound.operation, stats.operation, matches.operation,
        match.operation,
        liveMatch.operation,
    ]
}
