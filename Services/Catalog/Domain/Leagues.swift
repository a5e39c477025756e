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

    /// The league manager adds a team of the league's sport: their own at once, another manager's
    /// once that manager accepts (`accept`). Adding a team already in it changes nothing.
    func add(_ teamID: TeamID, to id: LeagueID, by user: UserID) async throws -> Answer<League> {
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
            let members = try await leagues.teamIDs(in: id, on: sql)
            guard team.managerId == user || members.contains(teamID) else {
                try await leagues.request(teamID, for: id, on: sql)
                try await outbox.append(
                    CatalogEvent.leagueTeamRequested, aggregateID: id.description,
                    payload: CatalogEvent.LeagueTeamRequested(
                        league: league, teamId: team.id, teamName: team.name, managerId: team.managerId),
                    on: sql)
                return .other(LeagueTeamRequest(leagueId: id, teamId: teamID), status: 202)
            }
            return .described(try await join(teamID, to: id, on: sql))
        }
    }

    /// The team's manager accepts the league's request: the team joins it.
    func accept(_ id: LeagueID, for teamID: TeamID, by user: UserID) async throws -> League {
        try await database.transaction { sql in
            try await answer(id, for: teamID, by: user, on: sql)
            let league = try await leagues.league(id, on: sql).orMissing(id)
            let team = try await teams.visibleTeam(teamID, to: user, on: sql)
            guard team.sport == league.sport else { throw CatalogError.sportMismatch(team: team.sport, league: league.sport) }
            return try await join(teamID, to: id, on: sql)
        }
    }

    /// The team's manager declines the league's request.
    func decline(_ id: LeagueID, for teamID: TeamID, by user: UserID) async throws {
        try await database.transaction { sql in try await answer(id, for: teamID, by: user, on: sql) }
    }

    /// Takes the league's request for the team away, once `user` is shown to manage it: 403 for
    /// another, 404 when there is no such request.
    private func answer(_ id: LeagueID, for teamID: TeamID, by user: UserID, on sql: any SQLDatabase) async throws {
        let team = try await teams.visibleTeam(teamID, to: user, on: sql)
        guard team.membership == .manager else { throw CommonError.forbidden("Only the team's manager answers a league.") }
        guard try await leagues.removeRequest(of: teamID, from: id, on: sql) else {
            throw CommonError.notFound("No request from league \(id) to add this team.")
        }
    }

    private func join(_ teamID: TeamID, to id: LeagueID, on sql: any SQLDatabase) async throws -> League {
        try await leagues.add(teamID, to: id, on: sql)
        _ = try await leagues.removeRequest(of: teamID, from: id, on: sql)
        let updated = try await leagues.league(id, on: sql).orMissing(id)
        try await publish(CatalogEvent.leagueTeamAdded, updated, teamIDs: try await leagues.teamIDs(in: id, on: sql), on: sql)
        return updated
    }

    /// The manager deletes the league: its teams and the games played in it stay.
    func delete(_ id: LeagueID, by user: UserID) async throws {
        let logo = try await database.transaction { sql in
            let league = try await visibleLeague(id, to: user, on: sql)
            guard league.managerId == user else { throw CommonError.forbidden("Only the league's manager deletes it.") }
            let logo = try await leagues.setLogo(nil, of: id, on: sql)
            try await leagues.delete(id, on: sql)
            try await outbox.append(
                CatalogEvent.leagueDeleted, aggregateID: id.description, payload: CatalogEvent.LeagueDeleted(leagueId: id), on: sql)
            return logo
        }
        await teams.logos.release(logo, from: MediaSubject(.league, id))
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
