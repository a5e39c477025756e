import Contracts
import Foundation
import SQLKit
import ServiceKit

/// Rooms and who may use them, kept in step with the events of the services that own teams, games,
/// matches and players: a team's room follows its members, a game's room its roster (going, maybe,
/// invited, waitlisted), a match gets a room when games first reports it, and names follow profiles.
/// Someone who loses a room is announced as a `left` change, so their open sockets stop at once.
struct RoomEvents: Sendable {
    let rooms: any RoomStore
    let people: any PeopleStore
    let messages: Messages
    let now: @Sendable () -> Date

    /// Roster statuses that make a player one of a game's room.
    static let gameRoomStatuses: Set<RosterStatus> = [.going, .maybe, .invited, .waitlisted]

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        let decoder = HuddleJSON.decoder
        switch event.type {
        case AuthEvent.profileChanged:
            let profile = try decoder.decode(AuthEvent.ProfileChanged.self, from: event.payload).profile
            try await people.setName(profile.name, of: profile.id, on: sql)
        case CatalogEvent.teamCreated, CatalogEvent.teamUpdated:
            let team = try decoder.decode(CatalogEvent.TeamChanged.self, from: event.payload).team
            let room = try await rooms.upsert(
                kind: .team, subject: team.id.description, name: team.name, startsAt: nil, endedAt: nil, at: now(), on: sql)
            if event.type == CatalogEvent.teamCreated { _ = try await rooms.addMember(team.managerId, to: room.id, on: sql) }
        case CatalogEvent.teamDeleted:
            let team = try decoder.decode(CatalogEvent.TeamDeleted.self, from: event.payload).teamId
            if let room = try await rooms.room(kind: .team, subject: team.description, on: sql) {
                for member in try await rooms.members(of: room.id, on: sql) { try await remove(member, from: room, on: sql) }
                try await rooms.close(room.id, at: now(), on: sql)
            }
        case CatalogEvent.membershipChanged:
            let change = try decoder.decode(CatalogEvent.MembershipChanged.self, from: event.payload)
            guard let room = try await rooms.room(kind: .team, subject: change.teamId.description, on: sql) else { return }
            if change.role?.isMember == true {
                _ = try await rooms.addMember(change.userId, to: room.id, on: sql)
            } else {
                try await remove(change.userId, from: room, on: sql)
            }
        case GameEvent.created, GameEvent.updated:
            let changed = try decoder.decode(GameEvent.GameChanged.self, from: event.payload)
            let game = changed.game
            let room = try await rooms.upsert(
                kind: .game, subject: game.id.description, name: game.displayName, startsAt: game.startsAt, endedAt: nil, at: now(),
                on: sql)
            for member in [game.organizerId] + changed.invited { _ = try await rooms.addMember(member, to: room.id, on: sql) }
        case GameEvent.rosterChanged:
            let change = try decoder.decode(GameEvent.RosterChanged.self, from: event.payload)
            guard let room = try await rooms.room(kind: .game, subject: change.gameId.description, on: sql) else { return }
            if let status = change.status, Self.gameRoomStatuses.contains(status) {
                _ = try await rooms.addMember(change.userId, to: room.id, on: sql)
            } else {
                try await remove(change.userId, from: room, on: sql)
            }
            for promoted in change.promoted { _ = try await rooms.addMember(promoted, to: room.id, on: sql) }
        case MatchEvent.updated, MatchEvent.finished:
            let match = try decoder.decode(MatchEvent.MatchChanged.self, from: event.payload).match
            let over = event.type == MatchEvent.finished ? match.updatedAt : nil
            _ = try await rooms.upsert(
                kind: .match, subject: match.id.description, name: "\(match.home.name) – \(match.away.name)", startsAt: match.kickoff,
                endedAt: over, at: now(), on: sql)
        default:
            return
        }
    }

    /// Takes `user` out of the room and tells their sockets.
    private func remove(_ user: UserID, from room: StoredRoom, on sql: any SQLDatabase) async throws {
        guard try await rooms.removeMember(user, from: room.id, on: sql) else { return }
        let version = try await rooms.nextVersion(of: room.id, on: sql)
        try await messages.announce(RoomChange(version: version, kind: .left, messageID: nil, userID: user), in: room.id, on: sql)
    }
}
