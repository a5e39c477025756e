import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceClients
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// The game use cases: creating, reading, changing and cancelling games. Roster changes are in
/// `Games+Roster.swift`. Every rule is checked here, on the server; each change commits with its event.
struct Games: Sendable {
    let database: Database
    let games: any GameStore
    let roster: any RosterStore
    let catalog: CatalogClient
    let auth: AuthClient
    /// The `location` and `join` gates, where `purchases.gates` turns them on.
    let gatekeeper: Gatekeeper
    /// Descriptions with a filtered word are refused.
    let filter: ContentFilter
    var outbox: Outbox { Outbox(now: now) }
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    /// Team and league facts come from catalog before anything is written, so a catalog that is
    /// down fails the request with a 503 and leaves nothing behind.
    func create(_ request: CreateGameRequest, by user: UserID, requestID: String) async throws -> Game {
        let now = self.now()
        var venue: Venue?
        if let id = request.venueId { venue = try await knownVenue(id, requestID: requestID) }
        let request = Self.atVenue(request, venue)
        let kind = GameValidation.kindFields(request)
        var problems = GameValidation.common(
            startsAt: request.startsAt, timeZone: request.timeZone, location: request.location, capacity: request.capacity,
            description: request.description, now: now)
        problems += GameValidation.alreadyGoing(request.alreadyGoing, capacity: request.capacity)
        if case .failure(.validation(let missing)) = kind { problems += missing }
        let starts = Self.seriesStarts(request, now: now, problems: &problems)
        if request.alreadyGoing ?? 0 > 0, case .success(let fields) = kind, !fields.isPickup {
            problems.append(Problem.FieldError.invalid("alreadyGoing", "only a pick-up game counts players without accounts"))
        }
        try FieldRules.require(problems)
        if let description = request.description { try filter.refuse(description, field: "description") }
        var planned: GamePlan
        switch try kind.get() {
        case .team(let team): planned = try await teamGame(request, team: team, by: user, requestID: requestID)
        case .league(let league, let home, let away):
            planned = try await leagueGame(request, league: league, home: home, away: away, by: user, requestID: requestID)
        case .pickup(let fields): planned = GamePlan.pickup(request, fields, by: user, now: now)
        }
        planned.game.venueId = venue?.id
        let plans = planned.series(starting: starts, now: now)
        try await database.transaction { sql in
            for plan in plans {
                try await games.insert(plan.game, on: sql)
                for invitee in plan.invited {
                    try await roster.set(.invited, substitute: false, of: invitee, in: plan.game.id, on: sql)
                }
                for player in plan.going { try await roster.set(.going, substitute: false, of: player, in: plan.game.id, on: sql) }
                // The first game's push tells of the whole series.
                try await publish(
                    GameEvent.created, plan.game.id, invited: plan.invited, going: plan.going,
                    toldWith: plan.game.id == plans[0].game.id ? nil : plans[0].game.id, on: sql)
            }
        }
        return try await game(plans[0].game.id, viewer: user, from: nil)
    }

    /// The starts of the games `request` plans: its own, and with `repeat` each week's after it.
    private static func seriesStarts(_ request: CreateGameRequest, now: Date, problems: inout [Problem.FieldError]) -> [Date] {
        guard let rule = request.repeat else { return [request.startsAt] }
        let zone = request.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        switch GameSeries.starts(from: request.startsAt, repeating: rule, in: zone) {
        case .success(let starts):
            if let last = starts.last, last != request.startsAt { problems += GameValidation.startsAt(last, now: now, field: "repeat") }
            return starts
        case .failure(let error):
            if case .validation(let fields) = error { problems += fields }
            return [request.startsAt]
        }
    }

    func game(_ id: GameID, viewer: UserID, from position: Coordinates?) async throws -> Game {
        let (game, unlocked) = try await database.read { sql in
            let game = try await visibleGame(id, to: viewer, on: sql)
            return (game, try await placeUnlocked(for: viewer, among: [game], on: sql))
        }
        return GameView.shown(game, to: viewer, from: position, placeUnlocked: unlocked)
    }

    /// What names `shown` for a conditional read: each game's stored version (its roster's changes
    /// raise it) and whether its place was shown, which the viewer's entitlements decide.
    func tagParts(of shown: [Game]) async throws -> [String] {
        let versions = try await database.read { sql in
            try await RowVersions(of: "games").versions(of: shown.map(\.id.description), on: sql)
        }
        return shown.map { "\($0.id)/\(versions[$0.id.description] ?? -1)/\($0.location == nil ? "placeHidden" : "placeShown")" }
    }

    /// The stored versions of `ids`, as parts of an entity tag.
    func tagParts(ofGames ids: [GameID]) async throws -> [String] {
        try await database.read { sql in try await RowVersions(of: "games").tagParts(of: ids.map(\.description), on: sql) }
    }

    /// The viewer's games in `window`, paged by (startsAt, id).
    func mine(_ viewer: UserID, window: GameWindow, from position: Coordinates?, page: PageRequest) async throws -> Page<Game> {
        let after = try TimeCursor(page)
        let (rows, unlocked) = try await database.read { sql in
            let rows = try await HiddenSubjects().games(
                games.games(of: viewer, window: window, now: now(), after: after, limit: page.limit + 1, on: sql), for: viewer, on: sql)
            return (rows, try await placeUnlocked(for: viewer, among: rows, on: sql))
        }
        return page.page(
            rows, cursor: { TimeCursor(time: $0.startsAt, id: $0.id).encoded },
            item: { GameView.shown($0, to: viewer, from: position, placeUnlocked: unlocked) })
    }

    /// The games played at `venue` whose place `viewer` may see (`GameView`), paged by (startsAt, id).
    /// Those they may not are passed over, so a page reads on until it is full.
    func atVenue(_ venue: VenueID, viewer: UserID, window: GameWindow, from position: Coordinates?, page: PageRequest, requestID: String)
        async throws -> Page<Game>
    {
        guard try await catalog.venue(venue, requestID: requestID) != nil else { throw CommonError.missing(venue) }
        let (shown, unlocked) = try await database.read { sql in
            let unlocked = try await gatekeeper.allows(.location, to: viewer, on: sql)
            var shown: [Game] = [], after = try TimeCursor(page)
            while shown.count <= page.limit {
                let rows = try await games.games(
                    at: venue, window: window, now: now(), after: after, limit: page.limit + 1, viewer: viewer, on: sql)
                shown += try await HiddenSubjects().games(rows, for: viewer, on: sql).filter {
                    GameRules.canSee($0, viewer: viewer)
                        && GameView.shown($0, to: viewer, from: nil, placeUnlocked: unlocked).location != nil
                }
                guard rows.count == page.limit + 1, let last = rows.last else { break }
                after = TimeCursor(time: last.startsAt, id: last.id)
            }
            return (Array(shown.prefix(page.limit + 1)), unlocked)
        }
        return page.page(
            shown, cursor: { TimeCursor(time: $0.startsAt, id: $0.id).encoded },
            item: { GameView.shown($0, to: viewer, from: position, placeUnlocked: unlocked) })
    }

    /// Whether `viewer` may see the exact place of games they take no part in (the `location` gate);
    /// asked only when some of `shown` is such a game.
    private func placeUnlocked(for viewer: UserID, among shown: [Game], on sql: any SQLDatabase) async throws -> Bool {
        guard shown.contains(where: { !GameRules.isParticipant($0, viewer: viewer) }) else { return true }
        return try await gatekeeper.allows(.location, to: viewer, on: sql)
    }

    /// Every upcoming game with its exact location, soonest first: for search rebuilding its index.
    func snapshot(page: PageRequest) async throws -> Page<Game> {
        let after = try TimeCursor(page)
        let rows = try await database.read { sql in try await games.upcoming(now: now(), after: after, limit: page.limit + 1, on: sql) }
        return page.page(rows) { TimeCursor(time: $0.startsAt, id: $0.id).encoded }
    }

    /// Changes the game, and with `scope` `.following` the later scheduled games of its series: a new
    /// start moves each of them by as many days, to the same local time (`GameSeries.moved`).
    func update(_ id: GameID, with request: UpdateGameRequest, scope: SeriesScope = .this, by user: UserID) async throws -> Game {
        try FieldRules.require(
            GameValidation.common(
                startsAt: request.startsAt, timeZone: request.timeZone, location: request.location, capacity: request.capacity,
                description: request.description, now: now())
                + GameValidation.alreadyGoing(request.alreadyGoing, capacity: nil))
        if let description = request.description { try filter.refuse(description, field: "description") }
        try await database.transaction { sql in
            let game = try await organizedGame(id, by: user, on: sql)
            try GameRules.requireOpen(game, now: now())
            // The later games as they were: a move may take this game past some of them.
            var following: [Game] = []
            if scope == .following, let series = game.seriesId {
                following = try await games.games(inSeries: series, after: game.startsAt, on: sql)
            }
            try await change(game, with: request, on: sql)
            let zone = (request.timeZone ?? game.timeZone).flatMap(TimeZone.init(identifier:)) ?? .gmt
            for later in following {
                var change = request
                if let startsAt = request.startsAt {
                    let moved = GameSeries.moved(later.startsAt, from: game.startsAt, to: startsAt, in: zone)
                    try FieldRules.require(GameValidation.startsAt(moved, now: now(), field: "startsAt"))
                    change.startsAt = moved
                }
                try await self.change(later, with: change, toldWith: game.id, on: sql)
            }
        }
        return try await self.game(id, viewer: user, from: nil)
    }

    /// One game changed as `request` says, in the caller's transaction, with its event.
    private func change(_ game: Game, with request: UpdateGameRequest, toldWith: GameID? = nil, on sql: any SQLDatabase) async throws {
        var game = game
        if let alreadyGoing = request.alreadyGoing {
            guard game.kind == .pickup || alreadyGoing == 0 else {
                throw CommonError.invalid("alreadyGoing", "only a pick-up game counts players without accounts")
            }
            game.goingCount += alreadyGoing - (game.alreadyGoing ?? 0)
            game.alreadyGoing = alreadyGoing > 0 ? alreadyGoing : nil
        }
        if let capacity = request.capacity, capacity < game.goingCount {
            throw CommonError.invalid("capacity", "is below the \(game.goingCount) players already going")
        }
        if let capacity = game.capacity, capacity < game.goingCount {
            throw CommonError.invalid("alreadyGoing", "leaves \(game.goingCount) players going in \(capacity) slots")
        }
        if let startsAt = request.startsAt { game.startsAt = startsAt }
        if let location = request.location { game.location = location }
        if let privacy = request.privacy { game.privacy = privacy }
        if let ageGroup = request.ageGroup { game.ageGroup = ageGroup }
        if let gender = request.gender { game.gender = gender }
        if let skill = request.skill { game.skill = skill }
        if let capacity = request.capacity { game.capacity = capacity }
        if let description = request.description { game.description = description }
        if let timeZone = request.timeZone { game.timeZone = timeZone }
        try await games.update(game, on: sql)
        // More slots seat people from the waiting list.
        let promoted = try await promoteWaiting(in: game.id, on: sql)
        if !promoted.isEmpty, let after = try await games.game(game.id, viewer: nil, on: sql) {
            for user in promoted {
                try await publishRosterChange(of: user, status: .going, previous: .waitlisted, in: after, promoted: [user], on: sql)
            }
        }
        try await publish(GameEvent.updated, game.id, toldWith: toldWith, on: sql)
    }

    /// Cancelling keeps the game and its roster, so everyone still sees what happened to it; with
    /// `scope` `.following`, the later scheduled games of its series are cancelled too.
    func cancel(_ id: GameID, scope: SeriesScope = .this, by user: UserID) async throws {
        try await database.transaction { sql in
            var game = try await organizedGame(id, by: user, on: sql)
            if game.status != .cancelled {
                game.status = .cancelled
                try await games.update(game, on: sql)
                try await publish(GameEvent.cancelled, game.id, on: sql)
            }
            guard scope == .following, let series = game.seriesId else { return }
            for var later in try await games.games(inSeries: series, after: game.startsAt, on: sql) {
                later.status = .cancelled
                try await games.update(later, on: sql)
                try await publish(GameEvent.cancelled, later.id, toldWith: game.id, on: sql)
            }
        }
    }

    // MARK: Access

    /// The game as `viewer` may see it, held for the transaction when `locked`; 404 when private to others.
    func visibleGame(_ id: GameID, to viewer: UserID, locked: Bool = false, on sql: any SQLDatabase) async throws -> Game {
        let game = locked ? try await games.lock(id, viewer: viewer, on: sql) : try await games.game(id, viewer: viewer, on: sql)
        guard let game, GameRules.canSee(game, viewer: viewer) else { throw CommonError.missing(id) }
        return try await HiddenSubjects().games([game], for: viewer, on: sql).first.orMissing(id)
    }

    /// 403 unless `user` organises the game (404 when they may not see it), read before a change's body is.
    func requireOrganizer(of id: GameID, user: UserID) async throws {
        let game = try await database.read { sql in try await visibleGame(id, to: user, on: sql) }
        guard game.organizerId == user else { throw CommonError.forbidden("Only the game's organiser can do this.") }
    }

    /// The locked game when `user` organises it; 403 for others who can see it.
    func organizedGame(_ id: GameID, by user: UserID, on sql: any SQLDatabase) async throws -> Game {
        let game = try await visibleGame(id, to: user, locked: true, on: sql)
        guard game.organizerId == user else { throw CommonError.forbidden("Only the game's organiser can do this.") }
        return game
    }

    // MARK: Events

    /// Appends `type` with the game as it now is: exact location and counts, no viewer fields.
    /// The players invited who have not answered yet.
    func unanswered(in id: GameID, on sql: any SQLDatabase) async throws -> [UserID] {
        try await roster.placements(in: id, on: sql).filter { $0.status == .invited }.map(\.userId)
    }

    /// Who hears of a game's move or cancellation.
    static let concernedStatuses: Set<RosterStatus> = [.going, .maybe, .invited, .pending, .waitlisted]

    func publish(
        _ type: EventType<GameEvent.GameChanged>, _ id: GameID, invited: [UserID] = [], going: [UserID] = [],
        concerned named: [UserID]? = nil, toldWith: GameID? = nil, on sql: any SQLDatabase
    ) async throws {
        guard let game = try await games.game(id, viewer: nil, on: sql) else { return }
        // A move or a cancellation is told to everyone it concerns.
        var concerned = named ?? []
        if named == nil, type == GameEvent.updated || type == GameEvent.cancelled {
            concerned = try await roster.placements(in: id, on: sql).filter { Self.concernedStatuses.contains($0.status) }.map(\.userId)
        }
        try await outbox.append(
            type, aggregateID: id.description,
            payload: GameEvent.GameChanged(game: game, invited: invited, going: going, concerned: concerned, toldWith: toldWith), on: sql)
    }
}

extension HiddenSubjects {
    /// Games without those moderators hid, but for their organiser, who sees them marked hidden.
    func games(_ shown: [Game], for viewer: UserID, on sql: any SQLDatabase) async throws -> [Game] {
        try await unhidden(shown, .game, for: viewer, id: \.id.uuid, manager: \.organizerId, marked: \.hidden, on: sql)
    }
}
