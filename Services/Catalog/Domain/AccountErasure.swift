import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceStore

/// What a deleted account leaves in catalog. It loses every standing in every team. A team it
/// managed passes to its longest-standing player, who becomes manager; a team with no player left
/// is deleted (its upcoming games are cancelled and its room closed, by `catalog.team.deleted`). A
/// league it managed passes to the manager of one of the league's teams (told by notify, from
/// `catalog.league.handedOver`), or is deleted when none is left. The logos it uploaded come off
/// (media deletes its uploads).
struct AccountErasure: Sendable {
    let teams: Teams
    let leagues: any LeagueStore

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await teams.forget(user, on: sql)
        try await teams.removeLogos(uploadedBy: user, on: sql)
        try await leagues.removeLogos(uploadedBy: user, on: sql)
        for id in try await leagues.managed(by: user, on: sql) {
            var successor: UserID?
            for team in try await leagues.teamIDs(in: id, on: sql) {
                if let manager = try await teams.manager(of: team, on: sql), manager != user {
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
