/// Games' operations: games and rosters, disc golf rounds with their live card, player stats.
public enum GamesAPI {
    public static let createGame = Endpoint<SignedIn, CreateGameRequest, Game>(
        .POST, "/v1/games", owner: .games,
        summary: "Plan a game: team (team manager; the team's place and attributes are defaults; members are invited), "
            + "league (league manager, two of its teams), pickup (anyone; needs location and attributes)",
        status: 201, problems: [.forbidden, .dependencyUnavailable], idempotent: true)
    public static let myGames = Endpoint<SignedIn, NoBody, Page<Game>>(
        .GET, "/v1/games", owner: .games,
        summary: "My games from my teams and pick-ups: upcoming soonest first, past most recent first, pending = waiting for an answer",
        query: [.mineScope, QueryParameter("when", .oneOf(["upcoming", "past", "pending"]).defaulting(to: .text("upcoming")))]
            + QueryParameter.position + QueryParameter.paging)
    public static let game = Endpoint<SignedIn, NoBody, Game>(
        .GET, "/v1/games/{id}", owner: .games,
        summary: "A game; the exact location only for participants and public games, others get distanceMeters",
        query: QueryParameter.position)
    public static let updateGame = Endpoint<SignedIn, UpdateGameRequest, Game>(
        .PATCH, "/v1/games/{id}", owner: .games, summary: "Change a game (organiser only); more capacity seats the waiting list",
        problems: [.forbidden, .gameCancelled, .gameStarted])
    public static let cancelGame = Endpoint<SignedIn, NoBody, NoContent>(
        .DELETE, "/v1/games/{id}", owner: .games, summary: "Cancel a game (organiser only); it stays readable with status cancelled",
        problems: [.forbidden])
    public static let roster = Endpoint<SignedIn, NoBody, Page<RosterEntry>>(
        .GET, "/v1/games/{id}/roster", owner: .games,
        summary: "Players with their status and waiting-list position; pending requests only for the organiser",
        problems: [.dependencyUnavailable])
    public static let setStatus = Endpoint<SignedIn, SetRosterStatusRequest, RosterPlace>(
        .PUT, "/v1/games/{id}/status", owner: .games,
        summary: "Set my own answer: going (waiting list when full), maybe, notGoing (withdraws a pending request)",
        problems: [.forbidden, .gameCancelled, .gameStarted])
    public static let joinGame = Endpoint<SignedIn, NoBody, RosterPlace>(
        .POST, "/v1/games/{id}/join", owner: .games,
        summary: "Join: public → going (or waitlisted when full), protected → pending, private → invited players only; "
            + "while substitutes are wanted, anyone who can see the game comes in as one",
        problems: [.forbidden, .gameCancelled, .gameStarted], idempotent: true)
    public static let approveGameRequest = Endpoint<SignedIn, NoBody, RosterPlace>(
        .POST, "/v1/games/{id}/requests/{userId}/approve", owner: .games, summary: "Approve a request to join (organiser only)",
        problems: [.forbidden, .gameCancelled, .gameStarted], idempotent: true)
    public static let declineGameRequest = Endpoint<SignedIn, NoBody, NoContent>(
        .POST, "/v1/games/{id}/requests/{userId}/decline", owner: .games, summary: "Decline a request to join (organiser only)",
        problems: [.forbidden, .gameCancelled, .gameStarted], idempotent: true)
    public static let inviteToGame = Endpoint<SignedIn, InviteRequest, InviteResult>(
        .POST, "/v1/games/{id}/invites", owner: .games, summary: "Invite players (organiser only); a pending asker is seated",
        problems: [.forbidden, .gameCancelled, .gameStarted, .dependencyUnavailable], idempotent: true)
    public static let askForSubstitutes = Endpoint<SignedIn, SubstitutesRequest, Game>(
        .PUT, "/v1/games/{id}/subs", owner: .games, summary: "Ask for substitutes (organiser only); needed 0 clears the call",
        problems: [.forbidden, .gameCancelled, .gameStarted])

    // MARK: Rounds
    public static let startRound = Endpoint<SignedIn, StartRoundRequest, Scorecard>(
        .POST, "/v1/rounds", owner: .games,
        summary: "Start a disc golf round on a course: holes and pars are copied, every score starts at par; "
            + "you play, with the listed players and guests",
        status: 201, problems: [.dependencyUnavailable], idempotent: true)
    public static let myRounds = Endpoint<SignedIn, NoBody, Page<Scorecard>>(
        .GET, "/v1/rounds", owner: .games, summary: "My rounds, most recent first",
        query: [.mineScope, .choice("status", RoundStatus.self)] + QueryParameter.paging)
    public static let round = Endpoint<SignedIn, NoBody, Scorecard>(
        .GET, "/v1/rounds/{id}", owner: .games, summary: "The scorecard (players of the round only; 404 for others)")
    public static let score = Endpoint<SignedIn, ScoreUpdate, Scorecard>(
        .PUT, "/v1/rounds/{id}/scores", owner: .games,
        summary: "Set one player's strokes on one hole; bumps the version. With expectedVersion, a card that moved on is "
            + "a 409 VERSION_CONFLICT whose body also carries the card (ScoreConflict)",
        problems: [.roundFinished, .versionConflict], otherAnswers: [409: ScoreConflict.self])
    public static let finishRound = Endpoint<SignedIn, NoBody, Scorecard>(
        .POST, "/v1/rounds/{id}/finish", owner: .games, summary: "Finish the round (any player); it becomes read-only",
        idempotent: true)
    public static let liveRound = Endpoint<SignedIn, NoBody, LiveMessage>(
        .GET, "/v1/rounds/{id}/live", owner: .games,
        summary: "WebSocket: every change of the card as LiveMessage JSON text frames. With afterVersion, first exactly the "
            + "changes after it, otherwise the whole card; then live changes. Send ScoreUpdate JSON to score. "
            + "Over plain HTTP: 426 for players of the round",
        status: 101, query: [QueryParameter("afterVersion", .integer(0...Int(Int32.max)))], problems: [.webSocketRequired],
        webSocket: true)
    public static let stats = Endpoint<SignedIn, NoBody, PlayerStats>(
        .GET, "/v1/users/{id}/stats", owner: .games, summary: "A player's disc golf statistics from completed rounds")

    public static let all: [APIOperation] = [
        createGame.operation, myGames.operation, game.operation, updateGame.operation, cancelGame.operation, roster.operation,
        setStatus.operation, joinGame.operation, approveGameRequest.operation, declineGameRequest.operation,
        inviteToGame.operation, askForSubstitutes.operation, startRound.operation, myRounds.operation, round.operation,
        score.operation, finishRound.operation, liveRound.operation, stats.operation,
    ]

    public enum Internal {
        public static let gameSnapshot = Endpoint<InternalCaller, NoBody, Page<Game>>(
            .GET, "/internal/snapshots/games", owner: .games, summary: "Every upcoming game, page by page", query: QueryParameter.paging)

        public static let all: [APIOperation] = [gameSnapshot.operation, EventsAPI.deliver(to: .games).operation]
    }
}

/// Search's operations: everything near a place, and players by name.
public enum SearchAPI {
    private static let filters: [QueryParameter] = [
        .sport,
        .choice("skill", Skill.self, description: "matches that skill or any"),
        .choice("ageGroup", AgeGroup.self, description: "matches that age group or any"),
        .choice("gender", Gender.self, description: "male or female also match coed and any"),
    ]

    public static let games = Endpoint<SignedIn, NoBody, Page<Nearby<Game>>>(
        .GET, "/v1/search/games", owner: .search,
        summary: "Upcoming games within the radius, nearest first, then soonest; private games never, protected ones without location",
        query: QueryParameter.area + filters + [
            QueryParameter("from", .dateTime), QueryParameter("to", .dateTime, description: "not before from"),
            QueryParameter("needsPlayers", .boolean),
        ] + QueryParameter.paging)
    public static let teams = Endpoint<SignedIn, NoBody, Page<Nearby<TeamResult>>>(
        .GET, "/v1/search/teams", owner: .search,
        summary: "Teams within the radius, nearest first; private never, protected without location",
        query: QueryParameter.area + filters + QueryParameter.paging)
    public static let courses = Endpoint<SignedIn, NoBody, Page<Nearby<Course>>>(
        .GET, "/v1/search/courses", owner: .search, summary: "Disc golf courses within the radius, nearest first",
        query: QueryParameter.area + QueryParameter.paging)
    public static let venues = Endpoint<SignedIn, NoBody, Page<Nearby<Venue>>>(
        .GET, "/v1/search/venues", owner: .search, summary: "The nearest grounds",
        query: Array(QueryParameter.area.prefix(2)) + [QueryParameter("limit", JSONSchema.integer(1...100).defaulting(to: .number(5)))])
    public static let players = Endpoint<SignedIn, NoBody, Page<PlayerResult>>(
        .GET, "/v1/search/players", owner: .search, summary: "Players by name: prefixes first, small typos forgiven",
        query: [QueryParameter("q", JSONSchema.text(1...80).pattern(#"\S"#), required: true)] + QueryParameter.paging)

    public static let all: [APIOperation] = [games.operation, teams.operation, courses.operation, venues.operation, players.operation]

    public enum Internal {
        public static let reindex = Endpoint<InternalCaller, NoBody, ReindexResult>(
            .POST, "/internal/reindex", owner: .search, summary: "Rebuild the read model from the owners' snapshots")

        public static let all: [APIOperation] = [reindex.operation, EventsAPI.deliver(to: .search).operation]
    }
}

/// `POST /internal/events`, which every module that consumes events answers.
public enum EventsAPI {
    public static func deliver(to consumer: ServiceModule) -> Endpoint<InternalCaller, EventBatch, NoContent> {
        Endpoint(.POST, "/internal/events", owner: consumer, summary: "Apply a batch of events once each (an inbox drops repeats)")
    }
}
