import Contracts
import Foundation
import SQLKit
import ServiceKit

/// Turns other services' events into notifications: a new team game to the members it invited, an
/// invitation, a join request to the manager or organiser, an approved request, a promotion from
/// the waiting list, being added to a round, a new follower. It keeps the names and the managers
/// and organisers those events refer to, from the events that describe them.
struct NotifyEvents: Sendable {
    let directory: any DirectoryStore
    let notifications: Notifications
    let reminders: Reminders
    /// A player's name from auth, for one whose profile event has not arrived yet (auth's events
    /// and catalog's travel separately).
    let nameFromAuth: @Sendable (UserID) async throws -> String?

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        for planned in try await plan(event, on: sql) { try await notifications.deliver(planned, on: sql) }
    }

    private func plan(_ event: EventEnvelope, on sql: any SQLDatabase) async throws -> [Planned] {
        let decoder = HuddleJSON.decoder
        switch event.type {
        case AuthEvent.profileChanged:
            let profile = try decoder.decode(AuthEvent.ProfileChanged.self, from: event.payload).profile
            try await directory.setName(profile.name, of: profile.id, on: sql)
            return []
        case AuthEvent.followed:
            let follow = try decoder.decode(AuthEvent.Followed.self, from: event.payload)
            return [
                Planned(
                    recipients: [follow.followedId], category: .newFollower, text: NotificationText.newFollower(follow.follower.name),
                    data: NotificationData(userId: follow.follower.id))
            ]
        case CatalogEvent.teamCreated, CatalogEvent.teamUpdated:
            let team = try decoder.decode(CatalogEvent.TeamChanged.self, from: event.payload).team
            try await directory.saveTeam(team.id, name: team.name, manager: team.managerId, on: sql)
            return []
        case CatalogEvent.teamDeleted:
            try await directory.removeTeam(try decoder.decode(CatalogEvent.TeamDeleted.self, from: event.payload).teamId, on: sql)
            return []
        case CatalogEvent.membershipChanged:
            return try await membership(try decoder.decode(CatalogEvent.MembershipChanged.self, from: event.payload), on: sql)
        case GameEvent.created, GameEvent.updated, GameEvent.cancelled:
            let changed = try decoder.decode(GameEvent.GameChanged.self, from: event.payload)
            let game = changed.game
            try await directory.saveGame(game, on: sql)
            try await reminders.gameChanged(
                game, going: changed.going, created: event.type == GameEvent.created, cancelled: event.type == GameEvent.cancelled, on: sql)
            guard event.type == GameEvent.created, !changed.invited.isEmpty else { return [] }
            return [
                Planned(
                    recipients: changed.invited.filter { $0 != game.organizerId }, category: .newGame,
                    text: NotificationText.newGame(
                        game.displayName, startsAt: game.startsAt, timeZone: NotificationText.zone(game.timeZone)),
                    data: NotificationData(gameId: game.id, teamId: game.teamId))
            ]
        case GameEvent.rosterChanged:
            let change = try decoder.decode(GameEvent.RosterChanged.self, from: event.payload)
            try await reminders.rosterChanged(change, on: sql)
            return try await roster(change, on: sql)
        case RoundEvent.started:
            let changed = try decoder.decode(RoundEvent.RoundChanged.self, from: event.payload)
            let card = changed.scorecard
            let starter = try await name(of: card.startedBy, on: sql)
            return [
                Planned(
                    recipients: changed.addedUserIds.filter { $0 != card.startedBy }, category: .addedToRound,
                    text: NotificationText.addedToRound(by: starter, course: card.courseName), data: NotificationData(roundId: card.id))
            ]
        default:
            return []
        }
    }

    private func name(of user: UserID, on sql: any SQLDatabase) async throws -> String? {
        if let known = try await directory.name(of: user, on: sql) { return known }
        guard let name = try? await nameFromAuth(user) else { return nil }
        try await directory.setName(name, of: user, on: sql)
        return name
    }

    private func membership(_ change: CatalogEvent.MembershipChanged, on sql: any SQLDatabase) async throws -> [Planned] {
        guard let team = try await directory.team(change.teamId, on: sql) else { return [] }
        let data = NotificationData(teamId: change.teamId)
        switch (change.previousRole, change.role) {
        case (nil, .invited?):
            let manager = try await name(of: team.manager, on: sql)
            return [
                Planned(
                    recipients: [change.userId], category: .invitation,
                    text: NotificationText.teamInvitation(team: team.name, manager: manager),
                    data: data)
            ]
        case (nil, .pending?):
            let player = try await name(of: change.userId, on: sql)
            var data = data
            data.userId = change.userId
            return [
                Planned(
                    recipients: [team.manager], category: .joinRequest, text: NotificationText.joinRequest(from: player, to: team.name),
                    data: data)
            ]
        case (.pending?, .player?):
            return [
                Planned(
                    recipients: [change.userId], category: .requestApproved, text: NotificationText.teamRequestApproved(team: team.name),
                    data: data)
            ]
        default:
            return []
        }
    }

    private func roster(_ change: GameEvent.RosterChanged, on sql: any SQLDatabase) async throws -> [Planned] {
        guard let game = try await directory.game(change.gameId, on: sql) else { return [] }
        let data = NotificationData(gameId: change.gameId)
        var planned: [Planned] = []
        switch (change.previousStatus, change.status) {
        case (nil, .invited?):
            let organizer = try await name(of: game.organizer, on: sql)
            planned.append(
                Planned(
                    recipients: [change.userId], category: .invitation,
                    text: NotificationText.gameInvitation(game: game.name, organizer: organizer), data: data))
        case (nil, .pending?):
            let player = try await name(of: change.userId, on: sql)
            var data = data
            data.userId = change.userId
            planned.append(
                Planned(
                    recipients: [game.organizer], category: .joinRequest, text: NotificationText.joinRequest(from: player, to: game.name),
                    data: data))
        case (.pending?, let now?) where now == .going || now == .waitlisted:
            planned.append(
                Planned(
                    recipients: [change.userId], category: .requestApproved,
                    text: NotificationText.gameRequestApproved(game: game.name, waitlisted: now == .waitlisted), data: data))
        default:
            break
        }
        let promoted = change.promoted.filter { $0 != change.userId || change.previousStatus == .waitlisted }
        if !promoted.isEmpty {
            planned.append(
                Planned(recipients: promoted, category: .waitlistPromoted, text: NotificationText.promoted(game: game.name), data: data))
        }
        return planned
    }
}
