import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceStore

/// What a deleted account leaves in catalog. It loses every standing in every team. A team it
/// managed passes to its longest-standing player, who becomes manager; a team with no player left
/// is deleted (its upcoming games are cancelled and its room closed, by `catalog.team.deleted`). A
/// league it managed passes to the manager of one of the league's teams (told by notify, from
/// `catalog.league.handedOver`), or is deleted when none is left.
struct AccountErasure: Sendable {
    let teams: Teams
    let leagues: any LeagueStore

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        for id in try await teams.teams.standings(of: user, on: sql) {
            try await teams.teams.lock(id, on: sql)
            let members = try await teams.teams.memberships(of: id, on: sql)
            guard members.first(where: { $0.userId == user })?.role == .manager else {
                try await teams.removeStanding(of: user, in: id, on: sql)
                continue
            }
            guard let successor = members.first(where: { $0.role == .player && $0.userId != user }) else {
                try await teams.teams.delete(id, on: sql)
                try await teams.outbox.append(
                    CatalogEvent.teamDeleted, aggregateID: id.description, payload: CatalogEvent.TeamDeleted(teamId: id), on: sql)
                continue
            }
            var team = try await teams.setStanding(.manager, of: successor.userId, in: id, viewer: successor.userId, on: sql)
            team.managerId = successor.userId
            try await teams.teams.update(team, on: sql)
            try await teams.teams.setManager(successor.userId, of: id, on: sql)
            try await teams.publish(CatalogEvent.teamUpdated, team, on: sql)
            try await teams.removeStanding(of: user, in: id, on: sql)
        }
        for id in try await leagues.managed(by: user, on: sql) {
            var successor: UserID?
            for team in try await leagues.teamIDs(in: id, on: sql) {
                if let manager = try await teams.teams.team(team, viewer: nil, on: sql)?.managerId, manager != user {
                    successor = manager
                    break
                }
            }
            if let successor {
                try await leagues.setManager(successor, of: id, on: sql)
                if let league = try await leagues.league(id, on: sql) {
                    try await teams.outbox.append(
                        CatalogEvent.leagueHandedOver, aggregateID: id.description,
                        payload: CatalogEvent.LeagueChanged(league: league, teamIds: try await leagues.teamIDs(in: id, on: sql)), on: sql)
                }
            } else {
                try await leagues.delete(id, on: sql)
            }
        }
    }
}
