public import Contracts
public import Foundation

/// What adding a team to a league came to: in it at once (my own team), or asked of its manager.
public enum LeagueTeamAddition: Sendable, Equatable {
    case added(League)
    case requested(LeagueTeamRequest)
}

extension HuddleClient {
    /// Adds a team to a league I manage: my own team joins at once; another manager's is asked, and
    /// joins when that manager accepts (`acceptLeague`). Their team's `leagueRequests` lists the ask.
    ///
    ///     switch try await huddle.addTeam(team.id, toLeague: league.id) {
    ///     case .added(let league): show(league)
    ///     case .requested: showWaitingForTheirManager()
    ///     }
    public func addTeam(_ team: TeamID, toLeague league: LeagueID) async throws -> LeagueTeamAddition {
        let body = try HuddleJSON.encoder.encode(AddLeagueTeamRequest(teamId: team))
        let response = try await perform(CatalogAPI.addLeagueTeam.operation, [league.description], QueryItems(), body: body)
        return response.status == 202
            ? .requested(try decode(LeagueTeamRequest.self, from: response)) : .added(try decode(League.self, from: response))
    }

    /// Accepts a league's request to add a team I manage; answers the league the team is now in.
    public func acceptLeague(_ league: LeagueID, for team: TeamID) async throws -> League {
        try await send(CatalogAPI.acceptLeague, team, league)
    }

    /// Declines a league's request to add a team I manage.
    public func declineLeague(_ league: LeagueID, for team: TeamID) async throws {
        _ = try await send(CatalogAPI.declineLeague, team, league)
    }
}
