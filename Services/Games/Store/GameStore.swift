import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Games as stored: reads fill `goingCount` (the roster's and `alreadyGoing`), `waitlistCount` and the viewer's `myStatus`;
/// `location` is always the exact one (the domain decides who sees it).
protocol GameStore: Sendable {
    func insert(_ game: Game, on sql: any SQLDatabase) async throws
    func game(_ id: GameID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Game?
    /// Reads the game and holds it until the transaction ends, so roster changes of one game
    /// happen one at a time (a row lock on PostgreSQL; SQLite transactions already run one by one).
    func lock(_ id: GameID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Game?
    /// Saves status, time, place, attributes, capacity, substitutes and description.
    func update(_ game: Game, on sql: any SQLDatabase) async throws
    /// Games where `user` is on the roster or is the organiser, ordered as `window` says.
    func games(of user: UserID, window: GameWindow, now: Date, after: TimeCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [Game]
    /// Games played at `venue` in `window` (upcoming or past), ordered as in `games(of:)`; the caller
    /// leaves out those the viewer may not see.
    func games(at venue: VenueID, window: GameWindow, now: Date, after: TimeCursor?, limit: Int, viewer: UserID, on sql: any SQLDatabase)
        async throws -> [Game]
    /// The scheduled games of `series` that start after `start`, soonest first, held for the transaction as `lock` holds one.
    func games(inSeries series: GameID, after start: Date, on sql: any SQLDatabase) async throws -> [Game]
    /// Scheduled games of `team` (as its own, home or away team) that have not started.
    func upcomingGames(of team: TeamID, now: Date, on sql: any SQLDatabase) async throws -> [GameID]
    /// Scheduled games that have not started, soonest first: a full snapshot for search.
    func upcoming(now: Date, after: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Game]
    /// Keeps the copied team name current wherever the team plays.
    func renameTeam(_ team: TeamID, to name: String, on sql: any SQLDatabase) async throws
}

struct SQLGameStore: GameStore {
    static let columns = [
        "id", "kind", "status", "team_id", "team_name", "league_id", "home_team_id", "home_team_name", "away_team_id",
        "away_team_name", "organizer_id", "starts_at", "sport", "privacy", "age_group", "gender", "skill", "capacity",
        "subs_needed", "lat", "lng", "address", "description", "created_at", "time_zone", "already_going",
        "venue_id", "series_id",
    ]

    func insert(_ game: Game, on sql: any SQLDatabase) async throws {
        let location = game.location ?? Location(lat: 0, lng: 0)
        try await sql.insert(into: "games").columns(Self.columns)
            .values(
                SQLBind(game.id.description), SQLBind(game.kind.rawValue), SQLBind(game.status.rawValue),
                SQLBind(game.teamId?.description), SQLBind(game.teamName), SQLBind(game.leagueId?.description),
                SQLBind(game.homeTeamId?.description), SQLBind(game.homeTeamName), SQLBind(game.awayTeamId?.description),
                SQLBind(game.awayTeamName), SQLBind(game.organizerId.description), SQLBind(game.startsAt),
                SQLBind(game.sport.rawValue), SQLBind(game.privacy.rawValue), SQLBind(game.ageGroup.rawValue),
                SQLBind(game.gender.rawValue), SQLBind(game.skill.rawValue), SQLBind(game.capacity), SQLBind(game.subsNeeded),
                SQLBind(location.lat), SQLBind(location.lng), SQLBind(location.address), SQLBind(game.description),
                SQLBind(game.createdAt), SQLBind(game.timeZone), SQLBind(game.alreadyGoing ?? 0),
                SQLBind(game.venueId?.description), SQLBind(game.seriesId?.description)
            ).run()
    }

    func game(_ id: GameID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Game? {
        guard let row = try await select(on: sql).where("id", .equal, SQLBind(id.description)).first() else { return nil }
        return try await decorate([row], viewer: viewer, on: sql).first
    }

    func lock(_ id: GameID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Game? {
        guard let row = try await select(on: sql).where("id", .equal, SQLBind(id.description)).for(.update).first()
        else { return nil }
        return try await decorate([row], viewer: viewer, on: sql).first
    }

    func update(_ game: Game, on sql: any SQLDatabase) async throws {
        let location = game.location ?? Location(lat: 0, lng: 0)
        try await sql.update("games")
            .set("status", to: SQLBind(game.status.rawValue)).set("starts_at", to: SQLBind(game.startsAt))
            .set("privacy", to: SQLBind(game.privacy.rawValue)).set("age_group", to: SQLBind(game.ageGroup.rawValue))
            .set("gender", to: SQLBind(game.gender.rawValue)).set("skill", to: SQLBind(game.skill.rawValue))
            .set("capacity", to: SQLBind(game.capacity)).set("subs_needed", to: SQLBind(game.subsNeeded))
            .set("lat", to: SQLBind(location.lat)).set("lng", to: SQLBind(location.lng))
            .set("address", to: SQLBind(location.address)).set("description", to: SQLBind(game.description))
            .set("time_zone", to: SQLBind(game.timeZone)).set("already_going", to: SQLBind(game.alreadyGoing ?? 0)).where(
                "id", .equal, SQLBind(game.id.description)
            ).run()
    }

    func games(of user: UserID, window: GameWindow, now: Date, after: TimeCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [Game]
    {
        let startsAt = SQLColumn("starts_at", table: "games"), id = SQLColumn("id", table: "games")
        var query = sql.select().columns(Self.columns.map { SQLColumn($0, table: "games") }).from("games")
            .join(
                "roster", method: SQLJoinMethod.left,
                on: SQLBinaryExpression(
                    SQLBinaryExpression(SQLColumn("game_id", table: "roster"), .equal, id), .and,
                    SQLBinaryExpression(SQLColumn("user_id", table: "roster"), .equal, SQLBind(user.description))))
        switch window {
        case .upcoming:
            query = query.where(group: { mine in
                mine.where(SQLColumn("user_id", table: "roster"), .isNot, SQLLiteral.null)
                    .orWhere(SQLColumn("organizer_id", table: "games"), .equal, SQLBind(user.description))
            }).where(startsAt, .greaterThanOrEqual, SQLBind(now))
        case .past:
            query = query.where(group: { mine in
                mine.where(SQLColumn("user_id", table: "roster"), .isNot, SQLLiteral.null)
                    .orWhere(SQLColumn("organizer_id", table: "games"), .equal, SQLBind(user.description))
            }).where(startsAt, .lessThan, SQLBind(now))
        case .pending:
            query = query.where(
                SQLColumn("status", table: "roster"), .in, SQLBind.group([RosterStatus.invited.rawValue, RosterStatus.pending.rawValue])
            )
            .where(startsAt, .greaterThanOrEqual, SQLBind(now))
        }
        let descending = window == .past
        if let after { query = query.where(after.continuation(time: startsAt, id: id, descending: descending)) }
        let direction: SQLDirection = descending ? .descending : .ascending
        let rows = try await query.orderBy(startsAt, direction).orderBy(id, direction).limit(limit).all()
        return try await decorate(rows, viewer: user, on: sql)
    }

    func games(at venue: VenueID, window: GameWindow, now: Date, after: TimeCursor?, limit: Int, viewer: UserID, on sql: any SQLDatabase)
        async throws -> [Game]
    {
        let descending = window == .past
        var query = select(on: sql).where("venue_id", .equal, SQLBind(venue.description))
            .where("starts_at", descending ? .lessThan : .greaterThanOrEqual, SQLBind(now))
        if let after { query = query.where(after.continuation(time: SQLColumn("starts_at"), id: SQLColumn("id"), descending: descending)) }
        let direction: SQLDirection = descending ? .descending : .ascending
        return try await decorate(
            query.orderBy("starts_at", direction).orderBy("id", direction).limit(limit).all(), viewer: viewer, on: sql)
    }

    func games(inSeries series: GameID, after start: Date, on sql: any SQLDatabase) async throws -> [Game] {
        let rows = try await select(on: sql).where("series_id", .equal, SQLBind(series.description))
            .where("status", .equal, SQLBind(GameStatus.scheduled.rawValue)).where("starts_at", .greaterThan, SQLBind(start))
            .orderBy("starts_at").orderBy("id").for(.update).all()
        return try await decorate(rows, viewer: nil, on: sql)
    }

    func upcomingGames(of team: TeamID, now: Date, on sql: any SQLDatabase) async throws -> [GameID] {
        try await sql.select().column("id").from("games")
            .where(group: { playing in
                playing.where("team_id", .equal, SQLBind(team.description))
                    .orWhere("home_team_id", .equal, SQLBind(team.description))
                    .orWhere("away_team_id", .equal, SQLBind(team.description))
            })
            .where("status", .equal, SQLBind(GameStatus.scheduled.rawValue)).where("starts_at", .greaterThan, SQLBind(now))
            .orderBy("starts_at").all().map { try $0.typedID("id") }
    }

    func upcoming(now: Date, after: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Game] {
        var query = select(on: sql).where("status", .equal, SQLBind(GameStatus.scheduled.rawValue)).where(
            "starts_at", .greaterThan, SQLBind(now))
        if let after { query = query.where(after.continuation(time: SQLColumn("starts_at"), id: SQLColumn("id"), descending: false)) }
        return try await decorate(query.orderBy("starts_at").orderBy("id").limit(limit).all(), viewer: nil, on: sql)
    }

    func renameTeam(_ team: TeamID, to name: String, on sql: any SQLDatabase) async throws {
        for (idColumn, nameColumn) in [("team_id", "team_name"), ("home_team_id", "home_team_name"), ("away_team_id", "away_team_name")] {
            try await sql.update("games").set(nameColumn, to: SQLBind(name)).where(idColumn, .equal, SQLBind(team.description)).run()
        }
    }

    // MARK: Reading rows

    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns(Self.columns).from("games")
    }

    /// Adds going and waiting counts and the viewer's status to decoded rows.
    private func decorate(_ rows: [any SQLRow], viewer: UserID?, on sql: any SQLDatabase) async throws -> [Game] {
        var games = try rows.map(Self.decode)
        guard !games.isEmpty else { return [] }
        let ids = games.map { $0.id.description }
        var going: [String: Int] = [:], waiting: [String: Int] = [:]
        for row in try await sql.select().columns("game_id", "status").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "players")
            .from("roster").where("game_id", .in, SQLBind.group(ids))
            .where("status", .in, SQLBind.group([RosterStatus.going.rawValue, RosterStatus.waitlisted.rawValue]))
            .groupBy("game_id").groupBy("status").all()
        {
            let game = try row.decode(column: "game_id", as: String.self), count = try row.decode(column: "players", as: Int.self)
            if try row.decode(column: "status", as: String.self) == RosterStatus.going.rawValue {
                going[game] = count
            } else {
                waiting[game] = count
            }
        }
        var mine: [String: RosterStatus] = [:]
        if let viewer {
            for row in try await sql.select().columns("game_id", "status").from("roster")
                .where("game_id", .in, SQLBind.group(ids)).where("user_id", .equal, SQLBind(viewer.description)).all()
            {
                mine[try row.decode(column: "game_id", as: String.self)] = try row.enumValue("status")
            }
        }
        for index in games.indices {
            let id = games[index].id.description
            games[index].goingCount = (going[id] ?? 0) + (games[index].alreadyGoing ?? 0)
            games[index].waitlistCount = waiting[id] ?? 0
            games[index].myStatus = mine[id]
        }
        return games
    }

    static func decode(_ row: any SQLRow) throws -> Game {
        var game = Game(
            id: try row.typedID("id"), kind: try row.enumValue("kind"), status: try row.enumValue("status"),
            teamId: try row.decode(column: "team_id", as: String?.self).flatMap(TeamID.init),
            teamName: try row.decode(column: "team_name", as: String?.self),
            leagueId: try row.decode(column: "league_id", as: String?.self).flatMap(LeagueID.init),
            homeTeamId: try row.decode(column: "home_team_id", as: String?.self).flatMap(TeamID.init),
            homeTeamName: try row.decode(column: "home_team_name", as: String?.self),
            awayTeamId: try row.decode(column: "away_team_id", as: String?.self).flatMap(TeamID.init),
            awayTeamName: try row.decode(column: "away_team_name", as: String?.self),
            organizerId: try row.typedID("organizer_id"), startsAt: try row.decode(column: "starts_at", as: Date.self),
            timeZone: try row.decode(column: "time_zone", as: String?.self), sport: try row.enumValue("sport"),
            privacy: try row.enumValue("privacy"), ageGroup: try row.enumValue("age_group"),
            gender: try row.enumValue("gender"), skill: try row.enumValue("skill"),
            capacity: try row.decode(column: "capacity", as: Int?.self), subsNeeded: try row.decode(column: "subs_needed", as: Int.self),
            location: Location(
                lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self),
                address: try row.decode(column: "address", as: String?.self)),
            description: try row.decode(column: "description", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Date.self))
        let alreadyGoing = try row.decode(column: "already_going", as: Int.self)
        game.alreadyGoing = alreadyGoing > 0 ? alreadyGoing : nil
        game.venueId = try row.decode(column: "venue_id", as: String?.self).flatMap(VenueID.init)
        game.seriesId = try row.decode(column: "series_id", as: String?.self).flatMap(GameID.init)
        return game
    }
}
