import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Turns other services' events into notifications: a new team game to the members it invited, an
/// invitation, a join request to the manager or organiser, an approved request, a promotion from
/// the waiting list, being added to a round, a new follower. It keeps the names and the managers
/// and organisers those events refer to, from the events that describe them. A deleted account's
/// devices, inbox, preferences, reminders and name go, and others' notifications name it no more.
struct NotifyEvents: Sendable {
    /// How others' notifications name a deleted account.
    static let formerPlayer = "A former player"

    let directory: any DirectoryStore
    let erasure: any ErasureStore
    let notifications: Notifications
    let reminders: Reminders
    let chatPushes: ChatPushes
    /// A player's name from auth, for one whose profile event has not arrived yet (auth's events
    /// and catalog's travel separately).
    let nameFromAuth: @Sendable (UserID) async throws -> String?

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        guard let step = try Self.handlers.step(for: event) else { return }
        for planned in try await step(self, sql) { try await notifications.deliver(planned, on: sql) }
    }

    /// What an event asks of notify, with the notifications it plans.
    typealias Step = @Sendable (NotifyEvents, any SQLDatabase) async throws -> [Planned]

    static let handlers = EventHandlers<Step> { on in
        on.on(AuthEvent.profileChanged) { changed, _ in
            { notify, sql in
                try await notify.directory.setProfile(
                    name: changed.profile.name, locale: changed.locale, of: changed.profile.id, on: sql)
                return []
            }
        }
        on.on(AuthEvent.accountDeleted) { deleted, _ in
            { notify, sql in
                let name = try await notify.directory.name(of: deleted.userId, on: sql)
                try await notify.erasure.erase(deleted.userId, name: name, formerName: NotifyEvents.formerPlayer, on: sql)
                return []
            }
        }
        on.on(AuthEvent.followed) { follow, _ in
            { _, _ in
                [
                    Planned(
                        recipients: [follow.followedId], category: .newFollower,
                        text: NotificationText.newFollower(follow.follower.name), data: NotificationData(userId: follow.follower.id))
                ]
            }
        }
        on.on(CatalogEvent.teamCreated, CatalogEvent.teamUpdated) { changed, _ in
            { notify, sql in
                try await notify.directory.saveTeam(changed.team.id, name: changed.team.name, manager: changed.team.managerId, on: sql)
                return []
            }
        }
        on.on(CatalogEvent.teamDeleted) { deleted, _ in
            { notify, sql in
                try await notify.directory.removeTeam(deleted.teamId, on: sql)
                return []
            }
        }
        on.on(CatalogEvent.membershipChanged) { change, _ in { notify, sql in try await notify.membership(change, on: sql) } }
        on.on(CatalogEvent.leagueHandedOver) { changed, _ in
            { _, _ in
                [
                    Planned(
                        recipients: [changed.league.managerId], category: .becameManager,
                        text: NotificationText.becameManager(league: changed.league.name),
                        data: NotificationData(leagueId: changed.league.id))
                ]
            }
        }
        on.on(CatalogEvent.leagueTeamRequested) { asked, _ in
            { _, _ in
                [
                    Planned(
                        recipients: [asked.managerId], category: .invitation,
                        text: NotificationText.leagueRequest(league: asked.league.name, team: asked.teamName),
                        data: NotificationData(teamId: asked.teamId, leagueId: asked.league.id))
                ]
            }
        }
        on.on(GameEvent.created) { changed, event in
            { notify, sql in try await notify.game(changed, at: event.occurredAt, created: true, on: sql) }
        }
        on.on(GameEvent.updated) { changed, event in { notify, sql in try await notify.game(changed, at: event.occurredAt, on: sql) } }
        on.on(GameEvent.cancelled) { changed, event in
            { notify, sql in try await notify.game(changed, at: event.occurredAt, cancelled: true, on: sql) }
        }
        on.on(GameEvent.remindRequested) { asked, _ in
            { _, _ in
                let game = asked.game
                return [
                    Planned(
                        recipients: asked.concerned, category: .rsvpReminder,
                        text: NotificationText.rsvpReminder(
                            game.displayName, startsAt: game.startsAt, timeZone: NotificationText.zone(game.timeZone)),
                        data: NotificationData(gameId: game.id, teamId: game.teamId),
                        answers: Answerable(game: game.id, kickoff: game.startsAt))
                ]
            }
        }
        on.on(GameEvent.rosterChanged) { change, event in
            { notify, sql in
                try await notify.reminders.rosterChanged(change, changedAt: event.occurredAt, on: sql)
                return try await notify.roster(change, on: sql)
            }
        }
        on.on(BettingEvent.ticketPlaced) { placed, _ in
            { _, _ in
                [
                    Planned(
                        recipients: [placed.ownerId], category: .ticket, text: NotificationText.ticketPlaced(placed.ticket),
                        data: NotificationData(ticketId: placed.ticket.id), pushed: false)
                ]
            }
        }
        on.on(BettingEvent.ticketSettled) { settled, _ in
            { _, _ in
                guard let text = NotificationText.ticketSettled(settled.ticket) else { return [] }
                // A win is worth telling at once; a loss can wait for the phone.
                return [
                    Planned(
                        recipients: [settled.ownerId], category: .ticket, text: text, data: NotificationData(ticketId: settled.ticket.id),
                        urgent: settled.ticket.status == .won)
                ]
            }
        }
        on.on(ChatEvent.messagePosted) { posted, _ in
            { notify, sql in
                try await notify.chatPushes.posted(posted, on: sql)
                return []
            }
        }
        on.on(RoundEvent.started, RoundEvent.playerAdded) { changed, _ in { notify, sql in try await notify.roundStarted(changed, on: sql) }
        }
        on.on(ModerationEvent.caseDecided) { decided, _ in { _, _ in NotifyEvents.decided(decided) } }
        on.on(ModerationEvent.caseOpened) { opened, _ in
            { _, _ in
                [
                    Planned(
                        recipients: opened.moderatorIds, category: .moderation,
                        text: NotificationText.newCase(opened.subject.type, reason: opened.reason), data: NotificationData())
                ]
            }
        }
    }

    /// The reporters learn the outcome; the owner learns of an action against them or what they wrote.
    static func decided(_ decided: ModerationEvent.CaseDecided) -> [Planned] {
        var data = NotificationData()
        switch decided.subject.type {
        case .team: data.teamId = TeamID(decided.subject.id.uuid)
        case .league: data.leagueId = LeagueID(decided.subject.id.uuid)
        case .game: data.gameId = GameID(decided.subject.id.uuid)
        case .user: data.userId = UserID(decided.subject.id.uuid)
        case .message: break
        }
        var planned = [
            Planned(
                recipients: decided.reporterIds.filter { $0 != decided.ownerId }, category: .moderation,
                text: NotificationText.reportOutcome(decided.action, subject: decided.subject.type), data: data, urgent: false)
        ]
        if let owner = decided.ownerId,
            let text = NotificationText.actionAgainst(
                decided.action, subject: decided.subject.type, reason: decided.reason, until: decided.until)
        {
            planned.append(Planned(recipients: [owner], category: .moderation, text: text, data: data))
        }
        return planned.filter { !$0.recipients.isEmpty }
    }

    private func game(
        _ changed: GameEvent.GameChanged, at changedAt: Date, created: Bool = false, cancelled: Bool = false, on sql: any SQLDatabase
    ) async throws -> [Planned] {
        let game = changed.game
        let before = try await directory.game(game.id, on: sql)
        try await directory.saveGame(game, on: sql)
        try await reminders.gameChanged(
            game, going: changed.going, invited: changed.invited, created: created, cancelled: cancelled, changedAt: changedAt, on: sql)
        // A series planned, moved or cancelled at once is told by its first game's push.
        guard changed.toldWith == nil else { return [] }
        if !created, let told = GameChanges.planned(changed, before: before, cancelled: cancelled) { return [told] }
        guard created, !changed.invited.isEmpty else { return [] }
        return [
            Planned(
                recipients: changed.invited.filter { $0 != game.organizerId }, category: .newGame,
                text: NotificationText.newGame(game.displayName, startsAt: game.startsAt, timeZone: NotificationText.zone(game.timeZone)),
                data: NotificationData(gameId: game.id, teamId: game.teamId), answers: Answerable(game: game.id, kickoff: game.startsAt))
        ]
    }

    private func roundStarted(_ changed: RoundEvent.RoundChanged, on sql: any SQLDatabase) async throws -> [Planned] {
        let card = changed.scorecard
        let starter = try await name(of: card.startedBy, on: sql)
        return [
            Planned(
                recipients: changed.addedUserIds.filter { $0 != card.startedBy }, category: .addedToRound,
                text: NotificationText.addedToRound(by: starter, course: card.courseName), data: NotificationData(roundId: card.id))
        ]
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
        case (.player?, .manager?):
            // Only a deleted manager's erasure hands a team over (catalog's `AccountErasure`).
            return [
                Planned(
                    recipients: [change.userId], category: .becameManager, text: NotificationText.becameManager(team: team.name), data: data
                )
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
                    text: NotificationText.gameInvitation(game: game.name, organizer: organizer), data: data,
                    answers: Answerable(game: change.gameId, kickoff: game.startsAt)))
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
