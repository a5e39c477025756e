import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceStore

/// Leagues and the teams that play in them.
protocol LeagueStore: Sendable {
    func insert(_ league: League, on sql: any SQLDatabase) async throws
    func rename(_ league: LeagueID, to name: String, on sql: any SQLDatabase) async throws
    /// Sets (or removes) the league's logo; answers the upload of the logo it replaced.
    func setLogo(_ logo: AttachedPicture?, of league: LeagueID, on sql: any SQLDatabase) async throws -> MediaID?
    /// Takes off every logo `owner` uploaded (their account is deleted, and media deletes its uploads).
    func removeLogos(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws
    func league(_ id: LeagueID, on sql: any SQLDatabase) async throws -> League?
    /// Leagues of `sport` (all sports when nil) that `viewer` may see, by name.
    func leagues(sport: Sport?, visibleTo viewer: UserID, after: NameCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [League]
    /// Idempotent.
    func add(_ team: TeamID, to league: LeagueID, on sql: any SQLDatabase) async throws
    /// The leagues `user` manages.
    func managed(by user: UserID, on sql: any SQLDatabase) async throws -> [LeagueID]
    func setManager(_ user: UserID, of league: LeagueID, on sql: any SQLDatabase) async throws
    func delete(_ league: LeagueID, on sql: any SQLDatabase) async throws
    func teamIDs(in league: LeagueID, on sql: any SQLDatabase) async throws -> [TeamID]
    /// A league's request to add a team someone else manages; asking again changes nothing.
    func request(_ team: TeamID, for league: LeagueID, on sql: any SQLDatabase) async throws
    /// Takes a request away; whether there was one.
    func removeRequest(of team: TeamID, from league: LeagueID, on sql: any SQLDatabase) async throws -> Bool
    /// Whether `user` manages the league or stands with one of its teams.
    func isInvolved(_ user: UserID, in league: LeagueID, on sql: any SQLDatabase) async throws -> Bool
}

struct SQLLeagueStore: LeagueStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    static let columns = [
        "id", "name", "sport", "skill", "age_group", "gender", "privacy", "lat", "lng", "address", "manager_id", "created_at",
    ]

    func insert(_ league: League, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "leagues").columns(Self.columns + ["name_key"])
            .values(
                SQLBind(league.id.description), SQLBind(league.name), SQLBind(league.sport.rawValue),
                SQLBind(league.skill.rawValue), SQLBind(league.ageGroup.rawValue), SQLBind(league.gender.rawValue),
                SQLBind(league.privacy.rawValue), SQLBind(league.location?.lat), SQLBind(league.location?.lng),
                SQLBind(league.location?.address), SQLBind(league.managerId.description), SQLBind(league.createdAt),
                SQLBind(NameCursor.key(league.name))
            ).run()
    }

    func rename(_ league: LeagueID, to name: String, on sql: any SQLDatabase) async throws {
        try await sql.update("leagues").set("name", to: SQLBind(name)).set("name_key", to: SQLBind(NameCursor.key(name)))
            .where("id", .equal, SQLBind(league.description)).run()
    }

    func removeLogos(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws {
        try await LogoColumns(table: "leagues").remove(uploadedBy: owner, on: sql)
    }

    func setLogo(_ logo: AttachedPicture?, of league: LeagueID, on sql: any SQLDatabase) async throws -> MediaID? {
        try await LogoColumns(table: "leagues").set(logo, of: league.description, on: sql)
    }

    func league(_ id: LeagueID, on sql: any SQLDatabase) async throws -> League? {
        guard let row = try await select(on: sql).where("id", .equal, SQLBind(id.description)).first() else { return nil }
        return try await withTeamCounts([row], on: sql).first
    }

    func leagues(sport: Sport?, visibleTo viewer: UserID, after: NameCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [League]
    {
        let involved: SQLQueryString = """
            EXISTS (SELECT 1 FROM league_teams lt JOIN memberships m ON m.team_id = lt.team_id \
            WHERE lt.league_id = leagues.id AND m.user_id = \(bind: viewer.description))
            """
        var query = select(on: sql).where(group: { group in
            group.where("privacy", .notEqual, SQLBind(Privacy.private.rawValue))
                .orWhere("manager_id", .equal, SQLBind(viewer.description))
                .orWhere(involved)
        })
        if let sport { query = query.where("sport", .equal, SQLBind(sport.rawValue)) }
        if let after { query = query.where(after.condition(table: "leagues")) }
        return try await withTeamCounts(query.orderBy("name_key").orderBy("id").limit(limit).all(), on: sql)
    }

    func managed(by user: UserID, on sql: any SQLDatabase) async throws -> [LeagueID] {
        try await sql.select().column("id").from("leagues").where("manager_id", .equal, SQLBind(user.description)).all()
            .map { try $0.typedID("id") }
    }

    func setManager(_ user: UserID, of league: LeagueID, on sql: any SQLDatabase) async throws {
        try await sql.update("leagues").set("manager_id", to: SQLBind(user.description)).where("id", .equal, SQLBind(league.description))
            .run()
    }

    func delete(_ league: LeagueID, on sql: any SQLDatabase) async throws {
        // Explicit, so it does not depend on foreign-key enforcement being on.
        for table in ["league_teams", "league_requests"] {
            try await sql.delete(from: table).where("league_id", .equal, SQLBind(league.description)).run()
        }
        try await sql.delete(from: "leagues").where("id", .equal, SQLBind(league.description)).run()
    }

    func add(_ team: TeamID, to league: LeagueID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "league_teams").columns("league_id", "team_id", "added_at")
            .values(SQLBind(league.description), SQLBind(team.description), SQLBind(now()))
            .ignoringConflicts(with: ["league_id", "team_id"]).run()
    }

    func request(_ team: TeamID, for league: LeagueID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "league_requests").columns("league_id", "team_id", "requested_at")
            .values(SQLBind(league.description), SQLBind(team.description), SQLBind(now()))
            .ignoringConflicts(with: ["league_id", "team_id"]).run()
    }

    func removeRequest(of team: TeamID, from league: LeagueID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.delete(from: "league_requests").where("league_id", .equal, SQLBind(league.description))
            .where("team_id", .equal, SQLBind(team.description)).returning("team_id").all().isEmpty
    }

    func teamIDs(in league: LeagueID, on sql: any SQLDatabase) async throws -> [TeamID] {
        try await sql.select().column("team_id").from("league_teams").where("league_id", .equal, SQLBind(league.description))
            .orderBy("added_at").orderBy("team_id").all().map { try $0.typedID("team_id") }
    }

    func isInvolved(_ user: UserID, in league: LeagueID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column(SQLLiteral.numeric("1")).from("league_teams")
            .join("memberships", on: SQLColumn("team_id", table: "memberships"), .equal, SQLColumn("team_id", table: "league_teams"))
            .where(SQLColumn("league_id", table: "league_teams"), .equal, SQLBind(league.description))
            .where(SQLColumn("user_id", table: "memberships"), .equal, SQLBind(user.description))
            .first() != nil
    }

    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns((Self.columns + ["logo"]).map { SQLColumn($0) }).from("leagues")
    }

    private func withTeamCounts(_ rows: [any SQLRow], on sql: any SQLDatabase) async throws -> [League] {
        var leagues = try rows.map(Self.decode)
        guard !leagues.isEmpty else { return [] }
        let counts = try await sql.select().column("league_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "teams")
            .from("league_teams").where("league_id", .in, SQLBind.group(leagues.map { $0.id.description }))
            .groupBy("league_id").all()
            .reduce(into: [String: Int]()) { result, row in
                result[try row.decode(column: "league_id", as: String.self)] = try row.decode(column: "teams", as: Int.self)
            }
        for index in leagues.indices { leagues[index].teamCount = counts[leagues[index].id.description] ?? 0 }
        return leagues
    }

    static func decode(_ row: any SQLRow) throws -> League {
        let lat = try row.decode(column: "lat", as: Double?.self)
        let lng = try row.decode(column: "lng", as: Double?.self)
        var league = League(
            id: try row.typedID("id"), name: try row.decode(column: "name", as: String.self),
            sport: try row.enumValue("sport"), skill: try row.enumValue("skill"),
            ageGroup: try row.enumValue("age_group"), gender: try row.enumValue("gender"),
            privacy: try row.enumValue("privacy"),
            location: lat.flatMap { lat in
                lng.map { Location(lat: lat, lng: $0, address: try? row.decode(column: "address", as: String?.self)) }
            },
            managerId: try row.typedID("manager_id"), teamCount: 0,
            createdAt: try row.decode(column: "created_at", as: Date.self))
        league.logo = try row.json("logo", as: AttachedPicture.self)?.sizes
        return league
    }
}
