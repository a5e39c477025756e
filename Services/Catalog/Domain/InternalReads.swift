import Contracts
import ServiceHTTP
import ServiceStore

// What other modules read of catalog. Internal callers see everything, whatever the privacy;
// they apply the user-facing rules themselves.

extension Teams {
    func anyTeam(_ id: TeamID) async throws -> Team {
        return try await database.read { sql in try await teams.team(id, viewer: nil, on: sql) }.orMissing(id)
    }

    func memberships(of id: TeamID) async throws -> Page<TeamMembership> {
        let members = try await database.read { sql in
            guard try await teams.team(id, viewer: nil, on: sql) != nil else { throw CommonError.missing(id) }
            return try await teams.memberships(of: id, on: sql)
        }
        return Page(items: members, nextCursor: nil)
    }

    func membership(of user: UserID, in id: TeamID) async throws -> TeamMembership {
        guard let role = try await database.read({ sql in try await teams.membership(of: user, in: id, on: sql) }) else {
            throw CommonError.notFound("\(user) has no standing with team \(id).")
        }
        return TeamMembership(teamId: id, userId: user, role: role)
    }
}

extension Leagues {
    func anyLeague(_ id: LeagueID) async throws -> League {
        return try await database.read { sql in try await leagues.league(id, on: sql) }.orMissing(id)
    }

    func allTeams(of id: LeagueID) async throws -> Page<Team> {
        let found = try await database.read { sql in
            guard try await leagues.league(id, on: sql) != nil else { throw CommonError.missing(id) }
            return try await teams.stored(try await leagues.teamIDs(in: id, on: sql), viewer: nil, on: sql)
        }
        return Page(items: found, nextCursor: nil)
    }
}
