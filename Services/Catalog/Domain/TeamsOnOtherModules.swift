import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceStore

/// What other modules' events and the other use cases need of teams, through `Teams` rather than its store.
extension Teams {
    /// A deleted account loses every standing. A team it managed passes to its longest-standing player;
    /// a team with no player left is deleted.
    func forget(_ user: UserID, on sql: any SQLDatabase) async throws {
        for id in try await teams.standings(of: user, on: sql) {
            try await teams.lock(id, on: sql)
            let members = try await teams.memberships(of: id, on: sql)
            guard members.first(where: { $0.userId == user })?.role == .manager else {
                try await removeStanding(of: user, in: id, on: sql)
                continue
            }
            guard let successor = members.first(where: { $0.role == .player && $0.userId != user }) else {
                try await teams.delete(id, on: sql)
                try await outbox.append(
                    CatalogEvent.teamDeleted, aggregateID: id.description, payload: CatalogEvent.TeamDeleted(teamId: id), on: sql)
                continue
            }
            var team = try await setStanding(.manager, of: successor.userId, in: id, viewer: successor.userId, on: sql)
            team.managerId = successor.userId
            try await teams.update(team, on: sql)
            try await teams.setManager(successor.userId, of: id, on: sql)
            try await publish(CatalogEvent.teamUpdated, team, on: sql)
            try await removeStanding(of: user, in: id, on: sql)
        }
    }

    /// The team's manager, whoever may see it.
    func manager(of team: TeamID, on sql: any SQLDatabase) async throws -> UserID? {
        try await teams.team(team, viewer: nil, on: sql)?.managerId
    }

    /// The stored teams with these ids, with `viewer`'s standing in each (nil: none shown).
    func stored(_ ids: [TeamID], viewer: UserID?, on sql: any SQLDatabase) async throws -> [Team] {
        try await teams.teams(ids: ids, viewer: viewer, on: sql)
    }
}
