import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// A new game before it is stored, with who goes on its roster at once.
struct GamePlan: Sendable {
    var game: Game
    /// Team members, invited until they answer.
    var invited: [UserID]
    /// The organiser of a pick-up game takes the first slot.
    var going: [UserID]

    static func pickup(_ request: CreateGameRequest, by user: UserID, now: Date) -> GamePlan {
        // `kindFields` has checked that every attribute is present.
        let game = Game(
            id: .timeOrdered(at: now), kind: .pickup, organizerId: user, startsAt: request.startsAt, timeZone: request.timeZone,
            sport: request.sport ?? .other,
            privacy: request.privacy ?? .public, ageGroup: request.ageGroup ?? .any, gender: request.gender ?? .any,
            skill: request.skill ?? .any, capacity: request.capacity, location: request.location,
            description: request.description, createdAt: now)
        return GamePlan(game: game, invited: [], going: [user])
    }
}

extension GameValidation {
    /// The fields each kind of game needs.
    static func kindFields(_ request: CreateGameRequest) -> [Problem.FieldError] {
        switch request.kind {
        case .team:
            return required(request.teamId, "teamId", for: .team)
        case .league:
            var errors =
                required(request.leagueId, "leagueId", for: .league) + required(request.homeTeamId, "homeTeamId", for: .league)
                + required(request.awayTeamId, "awayTeamId", for: .league)
            if let home = request.homeTeamId, home == request.awayTeamId {
                errors.append(.init(field: "awayTeamId", message: "must differ from homeTeamId"))
            }
            return errors
        case .pickup:
            return required(request.location, "location", for: .pickup) + required(request.sport, "sport", for: .pickup)
                + required(request.privacy, "privacy", for: .pickup) + required(request.ageGroup, "ageGroup", for: .pickup)
                + required(request.gender, "gender", for: .pickup) + required(request.skill, "skill", for: .pickup)
        }
    }
}

extension Games {
    /// Only the team's manager plans its games; the team's place and attributes are the defaults,
    /// and every member is invited.
    func teamGame(_ request: CreateGameRequest, by user: UserID, requestID: String) async throws -> GamePlan {
        let team = try await knownTeam(request.teamId!, field: "teamId", for: user, requestID: requestID)
        guard team.managerId == user else { throw CommonError.forbidden("Only the team's manager plans its games.") }
        if let sport = request.sport, sport != team.sport {
            throw CommonError.invalid("sport", "a team game is played in the team's sport, \(team.sport.rawValue)")
        }
        let game = Game(
            id: .timeOrdered(), kind: .team, teamId: team.id, teamName: team.name, organizerId: user, startsAt: request.startsAt,
            timeZone: request.timeZone,
            sport: team.sport, privacy: request.privacy ?? team.privacy, ageGroup: request.ageGroup ?? team.ageGroup,
            gender: request.gender ?? team.gender, skill: request.skill ?? team.skill, capacity: request.capacity,
            location: request.location ?? team.location, description: request.description, createdAt: Date())
        return GamePlan(game: game, invited: try await members(of: [team.id], requestID: requestID), going: [])
    }

    /// Only the league's manager plans its games, between two of its teams; both teams are invited.
    func leagueGame(_ request: CreateGameRequest, by user: UserID, requestID: String) async throws -> GamePlan {
        guard let league = try await catalog.league(request.leagueId!, requestID: requestID),
            league.privacy != .private || league.managerId == user
        else { throw CommonError.invalid("leagueId", "no league with id \(request.leagueId!)") }
        guard league.managerId == user else { throw CommonError.forbidden("Only the league's manager plans its games.") }
        let teams = try await catalog.teams(inLeague: league.id, requestID: requestID) ?? []
        var errors: [Problem.FieldError] = []
        let home = teams.first { $0.id == request.homeTeamId }, away = teams.first { $0.id == request.awayTeamId }
        if home == nil { errors.append(.init(field: "homeTeamId", message: "is not a team of this league")) }
        if away == nil { errors.append(.init(field: "awayTeamId", message: "is not a team of this league")) }
        try FieldRules.require(errors)
        let game = Game(
            id: .timeOrdered(), kind: .league, leagueId: league.id, homeTeamId: home!.id, homeTeamName: home!.name, awayTeamId: away!.id,
            awayTeamName: away!.name, organizerId: user, startsAt: request.startsAt, timeZone: request.timeZone, sport: league.sport,
            privacy: request.privacy ?? league.privacy, ageGroup: request.ageGroup ?? league.ageGroup,
            gender: request.gender ?? league.gender, skill: request.skill ?? league.skill, capacity: request.capacity,
            location: request.location ?? home!.location, description: request.description, createdAt: Date())
        return GamePlan(game: game, invited: try await members(of: [home!.id, away!.id], requestID: requestID), going: [])
    }

    /// A team the caller may know of; a private team they have no standing with is as unknown as a missing one.
    private func knownTeam(_ id: TeamID, field: String, for user: UserID, requestID: String) async throws -> Team {
        let unknown = CommonError.invalid(field, "no team with id \(id)")
        guard let team = try await catalog.team(id, requestID: requestID) else { throw unknown }
        if team.privacy == .private, team.managerId != user,
            try await catalog.membership(of: user, in: id, requestID: requestID) == nil
        {
            throw unknown
        }
        return team
    }

    /// Managers and players of the teams, each once.
    private func members(of teams: [TeamID], requestID: String) async throws -> [UserID] {
        var members: [UserID] = []
        for team in teams {
            for member in try await catalog.members(of: team, requestID: requestID) ?? [] where member.role.isMember {
                if !members.contains(member.userId) { members.append(member.userId) }
            }
        }
        return members
    }
}
