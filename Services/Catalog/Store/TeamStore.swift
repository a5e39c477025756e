import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Teams and who stands where with them. Reads fill `memberCount` and the viewer's `membership`.
protocol TeamStore: Sendable {
    func insert(_ team: Team, on sql: any SQLDatabase) async throws
    func team(_ id: TeamID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Team?
    /// Saves name, privacy, location and attributes.
    func update(_ team: Team, on sql: any SQLDatabase) async throws
    /// The leagues waiting for the team's manager to accept or decline, oldest first.
    func leagueRequests(for team: TeamID, on sql: any SQLDatabase) async throws -> [LeagueID]
    /// Sets (or removes) the team's logo; answers the upload of the logo it replaced.
    func setLogo(_ logo: AttachedPicture?, of team: TeamID, on sql: any SQLDatabase) async throws -> MediaID?
    /// Takes off every logo `owner` uploaded (their account is deleted, and media deletes its uploads).
    func removeLogos(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws
    /// Deletes the team with its memberships and league places.
    func delete(_ id: TeamID, on sql: any SQLDatabase) async throws
    /// Holds the team's row until the transaction ends, so that changes to a team and its standings
    /// take turns, each reading what the one before left (on SQLite, writers take turns anyway).
    func lock(_ id: TeamID, on sql: any SQLDatabase) async throws
    func membership(of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws -> Membership?
    func setMembership(_ role: Membership, of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws
    func removeMembership(of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws
    /// Everyone with a standing, manager first, then by when they arrived.
    func memberships(of team: TeamID, on sql: any SQLDatabase) async throws -> [TeamMembership]
    /// Every team `user` has a standing in.
    func standings(of user: UserID, on sql: any SQLDatabase) async throws -> [TeamID]
    func setManager(_ user: UserID, of team: TeamID, on sql: any SQLDatabase) async throws
    /// Teams where `user` has any standing (of `sport`, when given), by name.
    func teams(of user: UserID, sport: Sport?, after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Team]
    /// Public and protected teams whose name contains `text` (any case), by name.
    func search(text: String?, sport: Sport?, viewer: UserID?, after: NameCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [Team]
    func teams(ids: [TeamID], viewer: UserID?, on sql: any SQLDatabase) async throws -> [Team]
}

struct SQLTeamStore: TeamStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    static let columns = [
        "id", "name", "sport", "privacy", "lat", "lng", "address", "age_group", "gender", "skill", "manager_id", "created_at",
        "recruiting",
    ]

    func insert(_ team: Team, on sql: any SQLDatabase) async throws {
        let location = try Self.place(of: team)
        try await sql.insert(into: "teams").columns(Self.columns + ["name_key"])
            .values(
                SQLBind(team.id.description), SQLBind(team.name), SQLBind(team.sport.rawValue), SQLBind(team.privacy.rawValue),
                SQLBind(location.lat), SQLBind(location.lng), SQLBind(location.address),
                SQLBind(team.ageGroup.rawValue), SQLBind(team.gender.rawValue), SQLBind(team.skill.rawValue),
                SQLBind(team.managerId.description), SQLBind(team.createdAt), SQLBind(team.recruiting == true),
                SQLBind(NameCursor.key(team.name))
            ).run()
    }

    func team(_ id: TeamID, viewer: UserID?, on sql: any SQLDatabase) async throws -> Team? {
        try await teams(ids: [id], viewer: viewer, on: sql).first
    }

    func removeLogos(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws {
        try await LogoColumns(table: "teams").remove(uploadedBy: owner, on: sql)
    }

    func setLogo(_ logo: AttachedPicture?, of team: TeamID, on sql: any SQLDatabase) async throws -> MediaID? {
        try await LogoColumns(table: "teams").set(logo, of: team.description, on: sql)
    }

    func update(_ team: Team, on sql: any SQLDatabase) async throws {
        let location = try Self.place(of: team)
        try await sql.update("teams")
            .set("name", to: SQLBind(team.name)).set("name_key", to: SQLBind(NameCursor.key(team.name)))
            .set("privacy", to: SQLBind(team.privacy.rawValue))
            .set("lat", to: SQLBind(location.lat)).set("lng", to: SQLBind(location.lng))
            .set("address", to: SQLBind(location.address))
            .set("age_group", to: SQLBind(team.ageGroup.rawValue)).set("gender", to: SQLBind(team.gender.rawValue))
            .set("skill", to: SQLBind(team.skill.rawValue)).set("recruiting", to: SQLBind(team.recruiting == true))
            .where("id", .equal, SQLBind(team.id.description)).run()
    }

    func leagueRequests(for team: TeamID, on sql: any SQLDatabase) async throws -> [LeagueID] {
        try await sql.select().column("league_id").from("league_requests").where("team_id", .equal, SQLBind(team.description))
            .orderBy("requested_at").orderBy("league_id").all().map { try $0.typedID("league_id") }
    }

    /// A team's place: every team has one; only what a viewer is shown may leave it out.
    private static func place(of team: Team) throws -> Location {
        guard let location = team.location else { throw CommonError.internalError }
        return location
    }

    func delete(_ id: TeamID, on sql: any SQLDatabase) async throws {
        // Explicit, so it does not depend on foreign-key enforcement being on.
        for table in ["memberships", "league_teams", "league_requests"] {
            try await sql.delete(from: table).where("team_id", .equal, SQLBind(id.description)).run()
        }
        try await sql.delete(from: "teams").where("id", .equal, SQLBind(id.description)).run()
    }

    func lock(_ id: TeamID, on sql: any SQLDatabase) async throws {
        _ = try await sql.select().column("id").from("teams").where("id", .equal, SQLBind(id.description)).for(.update).first()
    }

    func membership(of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws -> Membership? {
        try await sql.select().column("role").from("memberships")
            .where("team_id", .equal, SQLBind(team.description)).where("user_id", .equal, SQLBind(user.description))
            .first().flatMap { Membership(rawValue: try $0.decode(column: "role", as: String.self)) }
    }

    func setMembership(_ role: Membership, of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "memberships").columns("team_id", "user_id", "role", "created_at")
            .values(SQLBind(team.description), SQLBind(user.description), SQLBind(role.rawValue), SQLBind(now()))
            .onConflict(with: ["team_id", "user_id"]) { $0.set(excludedValueOf: "role") }
            .run()
    }

    func removeMembership(of user: UserID, in team: TeamID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "memberships")
            .where("team_id", .equal, SQLBind(team.description)).where("user_id", .equal, SQLBind(user.description)).run()
    }

    func setManager(_ user: UserID, of team: TeamID, on sql: any SQLDatabase) async throws {
        try await sql.update("teams").set("manager_id", to: SQLBind(user.description)).where("id", .equal, SQLBind(team.description)).run()
    }

    func standings(of user: UserID, on sql: any SQLDatabase) async throws -> [TeamID] {
        try await sql.select().column("team_id").from("memberships").where("user_id", .equal, SQLBind(user.description)).all()
            .map { try $0.typedID("team_id") }
    }

    func memberships(of team: TeamID, on sql: any SQLDatabase) async throws -> [TeamMembership] {
        let rows = try await sql.select().columns("user_id", "role", "created_at").from("memberships")
            .where("team_id", .equal, SQLBind(team.description)).orderBy("created_at").orderBy("user_id").all()
        let members = try rows.compactMap { row -> TeamMembership? in
            guard let user = UserID(try row.decode(column: "user_id", as: String.self)),
                let role = Membership(rawValue: try row.decode(column: "role", as: String.self))
            else { return nil }
            return TeamMembership(teamId: team, userId: user, role: role)
        }
        return members.filter { $0.role == .manager } + members.filter { $0.role != .manager }
    }

    func teams(of user: UserID, sport: Sport?, after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Team] {
        var query = selectTeams(on: sql)
            .join("memberships", on: SQLColumn("team_id", table: "memberships"), .equal, SQLColumn("id", table: "teams"))
            .where(SQLColumn("user_id", table: "memberships"), .equal, SQLBind(user.description))
        if let sport { query = query.where(SQLColumn("sport", table: "teams"), .equal, SQLBind(sport.rawValue)) }
        if let after { query = query.where(after.condition(table: "teams")) }
        return try await decorate(
            query.orderBy(SQLColumn("name_key", table: "teams")).orderBy(SQLColumn("id", table: "teams")).limit(limit).all(),
            viewer: user, on: sql)
    }

    func search(text: String?, sport: Sport?, viewer: UserID?, after: NameCursor?, limit: Int, on sql: any SQLDatabase)
        async throws -> [Team]
    {
        var query = selectTeams(on: sql)
            .where("privacy", .in, SQLBind.group([Privacy.public.rawValue, Privacy.protected.rawValue]))
        if let text, !text.isEmpty {
            // A plain substring test: no LIKE, so `%` and `_` in the user's text mean themselves.
            let position = sql.dialect.name == "postgresql" ? "strpos" : "instr"
            query = query.where(
                SQLFunction(position, args: SQLColumn("name_key"), SQLBind(NameCursor.key(text))), .greaterThan, SQLLiteral.numeric("0"))
        }
        if let sport { query = query.where("sport", .equal, SQLBind(sport.rawValue)) }
        if let after { query = query.where(after.condition(table: "teams")) }
        return try await decorate(query.orderBy("name_key").orderBy("id").limit(limit).all(), viewer: viewer, on: sql)
    }

    func teams(ids: [TeamID], viewer: UserID?, on sql: any SQLDatabase) async throws -> [Team] {
        guard !ids.isEmpty else { return [] }
        let rows = try await selectTeams(on: sql).where("id", .in, SQLBind.group(ids.map(\.description))).all()
        let byID = Dictionary(uniqueKeysWithValues: try await decorate(rows, viewer: viewer, on: sql).map { ($0.id, $0) })
        return ids.compactMap { byID[$0] }
    }

    // MARK: Reading rows

    private func selectTeams(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns((Self.columns + ["logo"]).map { SQLColumn($0, table: "teams") }).from("teams")
    }

    /// Adds member counts and the viewer's standing to decoded rows.
    private func decorate(_ rows: [any SQLRow], viewer: UserID?, on sql: any SQLDatabase) async throws -> [Team] {
        var teams = try rows.map(Self.decode)
        guard !teams.isEmpty else { return [] }
        let ids = teams.map { $0.id.description }
        let counts = try await sql.select().column("team_id").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "members")
            .from("memberships")
            .where("team_id", .in, SQLBind.group(ids))
            .where("role", .in, SQLBind.group([Membership.manager.rawValue, Membership.player.rawValue]))
            .groupBy("team_id").all()
            .reduce(into: [String: Int]()) { result, row in
                result[try row.decode(column: "team_id", as: String.self)] = try row.decode(column: "members", as: Int.self)
            }
        var standing: [String: Membership] = [:]
        if let viewer {
            standing = try await sql.select().columns("team_id", "role").from("memberships")
                .where("team_id", .in, SQLBind.group(ids)).where("user_id", .equal, SQLBind(viewer.description)).all()
                .reduce(into: [:]) { result, row in
                    result[try row.decode(column: "team_id", as: String.self)] =
                        Membership(rawValue: try row.decode(column: "role", as: String.self))
                }
        }
        for index in teams.indices {
            teams[index].memberCount = counts[teams[index].id.description] ?? 0
            teams[index].membership = standing[teams[index].id.description]
        }
        return teams
    }

    static func decode(_ row: any SQLRow) throws -> Team {
        var team = Team(
            id: try row.typedID("id"), name: try row.decode(column: "name", as: String.self),
            sport: try row.enumValue("sport"), privacy: try row.enumValue("privacy"),
            location: Location(
                lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self),
                address: try row.decode(column: "address", as: String?.self)),
            ageGroup: try row.enumValue("age_group"), gender: try row.enumValue("gender"),
            skill: try row.enumValue("skill"), managerId: try row.typedID("manager_id"), memberCount: 0,
            createdAt: try row.decode(column: "created_at", as: Date.self))
        team.logo = try row.json("logo", as: AttachedPicture.self)?.sizes
        team.recruiting = try row.decode(column: "recruiting", as: Bool.self) ? true : nil
        return team
    }
}
