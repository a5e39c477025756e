import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// League use cases. A private league is seen only by its manager and the people of its teams.
struct Leagues: Sendable {
    let database: Database
    let leagues: any LeagueStore
    let teams: Teams
    var outbox: Outbox { Outbox(now: now) }
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func create(_ request: CreateLeagueRequest, by user: UserID) async throws -> League {
        try FieldRules.require(
            CatalogValidation.name(request.name) + (request.location.map { FieldRules.location($0) } ?? []))
        try teams.filter.refuse(request.name, field: "name")
        let league = League(
            id: LeagueID(), name: request.name.trimmingBlanks, sport: request.sport, skill: request.skill,
            ageGroup: request.ageGroup, gender: request.gender, privacy: request.privacy, location: request.location,
            managerId: user, teamCount: 0, createdAt: now())
        try await database.transaction { sql in
            try await teams.gatekeeper.require(.leagues, of: user, on: sql)
            try await leagues.insert(league, on: sql)
            try await publish(CatalogEvent.leagueCreated, league, teamIDs: [], on: sql)
        }
        return league
    }

    func league(_ id: LeagueID, viewer: UserID) async throws -> League {
        try await database.read { sql in try await visibleLeague(id, to: viewer, on: sql) }
    }

    func list(sport: Sport?, viewer: UserID, page: PageRequest) async throws -> Page<League> {
        let after = try NameCursor(page)
        let rows = try await database.read { sql in
            try await HiddenSubjects().leagues(
                leagues.leagues(sport: sport, visibleTo: viewer, after: after, limit: page.limit + 1, on: sql), for: viewer, on: sql)
        }
        return page.page(rows) { NameCursor.after(name: $0.name, id: $0.id) }
    }

    /// The manager renames the league or changes its logo (the route checked they manage it before
    /// the body was read; the transaction checks again).
    func update(_ id: LeagueID, with request: UpdateLeagueRequest, by user: UserID) async throws -> League {
        try FieldRules.require(request.name.map { CatalogValidation.name($0) } ?? [])
        if let name = request.name { try teams.filter.refuse(name, field: "name") }
        let subject = MediaSubject(.league, id)
        let logo = try await teams.logos.attach(request.logoMediaId, as: .leagueLogo, to: subject, by: user)
        let (updated, replaced) = try await database.transaction { sql in
            let league = try await visibleLeague(id, to: user, on: sql)
            guard league.managerId == user else { throw CommonError.forbidden("Only the league's manager changes it.") }
            if let name = request.name { try await leagues.rename(id, to: name.trimmingBlanks, on: sql) }
            let replaced = request.logoMediaId == nil ? nil : try await leagues.setLogo(logo, of: id, on: sql)
            return (try await visibleLeague(id, to: user, on: sql), replaced)
        }
        await teams.logos.release(replaced, from: subject)
        return updated
    }

    /// 403 unless `user` manages the league (404 when they may not see it), read before a change's body is.
    func requireManager(of id: LeagueID, user: UserID, refusal: ProblemText = "Only the league's manager adds teams.") async throws {
        let league = try await database.read { sql in try await visibleLeague(id, to: user, on: sql) }
        guard league.managerId == user else { throw CommonError.forbidden(refusal) }
    }

    /// The league manager adds a team of the league's sport; adding it again changes nothing.
    func add(_ teamID: TeamID, to id: LeagueID, by user: UserID) async throws -> League {
        try await database.transaction { sql in
            let league = try await visibleLeague(id, to: user, on: sql)
            guard league.managerId == user else { throw CommonError.forbidden("Only the league's manager adds teams.") }
            let team: Team
            do {
                team = try await teams.visibleTeam(teamID, to: user, on: sql)
            } catch is CommonError {
                throw CommonError.invalid("teamId", "no team with id \(teamID)")
            }
            guard team.sport == league.sport else { throw CatalogError.sportMismatch(team: team.sport, league: league.sport) }
            try await leagues.add(teamID, to: id, on: sql)
            let updated = try await leagues.league(id, on: sql).orMissing(id)
            try await publish(CatalogEvent.leagueTeamAdded, updated, teamIDs: try await leagues.teamIDs(in: id, on: sql), on: sql)
            return updated
        }
    }

    /// The league's teams that `viewer` may see, as `Teams.shown` shows them.
    func teams(of id: LeagueID, viewer: UserID, from position: Coordinates? = nil) async throws -> [Team] {
        try await database.read { sql in
            _ = try await visibleLeague(id, to: viewer, on: sql)
            let ids = try await leagues.teamIDs(in: id, on: sql)
            let visible = try await HiddenSubjects().teams(
                teams.stored(ids, viewer: viewer, on: sql).filter { TeamRules.canSee($0.privacy, standing: $0.membership) },
                for: viewer, on: sql)
            return try await teams.shown(visible, to: viewer, from: position, on: sql)
        }
    }

    private func visibleLeague(_ id: LeagueID, to viewer: UserID, on sql: any SQLDatabase) async throws -> League {
        let league = try await leagues.league(id, on: sql).orMissing(id)
        if league.privacy == .private, league.managerId != viewer, try await !leagues.isInvolved(viewer, in: id, on: sql) {
            throw CommonError.missing(id)
        }
        return try await HiddenSubjects().leagues([league], for: viewer, on: sql).first.orMissing(id)
    }

    private func publish(_ type: EventType<CatalogEvent.LeagueChanged>, _ league: League, teamIDs: [TeamID], on sql: any SQLDatabase)
        async throws
    {
        try await outbox.append(
            type, aggregateID: league.id.description, payload: CatalogEvent.LeagueChanged(league: league, teamIds: teamIDs), on: sql)
    }
}

extension HiddenSubjects {
    /// Leagues without those moderators hid, but for their manager, who sees them marked hidden.
    func leagues(_ shown: [League], for viewer: UserID, on sql: any SQLDatabase) async throws -> [League] {
        try await unhidden(shown, .league, for: viewer, id: \.id.uuid, manager: \.managerId, marked: \.hidden, on: sql)
    }
}
