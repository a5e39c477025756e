import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP

/// The events chat takes from other modules. Rooms and who may use them are kept in step with the events of the services that own teams, games,
/// matches and players: a team's room follows its members, a game's room its roster (going, maybe,
/// invited, waitlisted), a match gets a room when games first reports it, and names follow profiles.
/// Someone who loses a room is announced as a `left` change, so their open sockets stop at once.
/// A moderator's removal makes a message a tombstone the same way; one enough players reported is withheld until a moderator decides. A deleted account's messages become tombstones and it leaves every room.
struct ChatEvents: Sendable {
    let rooms: any RoomStore
    let people: any PeopleStore
    let messages: Messages
    let now: @Sendable () -> Date

    /// Roster statuses that make a player one of a game's room.
    static let gameRoomStatuses: Set<RosterStatus> = [.going, .maybe, .invited, .waitlisted]

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        try await Self.handlers.step(for: event)?(self, sql)
    }

    typealias Step = @Sendable (ChatEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(AuthEvent.profileChanged) { changed, _ in
            { events, sql in
                try await events.people.setProfile(
                    name: changed.profile.name, picture: changed.profile.picture, of: changed.profile.id, on: sql)
            }
        }
        on.on(AuthEvent.accountDeleted) { deleted, _ in { events, sql in try await events.erase(deleted.userId, on: sql) } }
        on.on(CatalogEvent.teamCreated) { changed, _ in { events, sql in try await events.team(changed.team, created: true, on: sql) } }
        on.on(CatalogEvent.teamUpdated) { changed, _ in { events, sql in try await events.team(changed.team, created: false, on: sql) } }
        on.on(CatalogEvent.teamDeleted) { deleted, _ in { events, sql in try await events.teamDeleted(deleted.teamId, on: sql) } }
        on.on(CatalogEvent.membershipChanged) { change, _ in { events, sql in try await events.membership(change, on: sql) } }
        on.on(GameEvent.created, GameEvent.updated) { changed, _ in { events, sql in try await events.game(changed, on: sql) } }
        on.on(GameEvent.rosterChanged) { change, _ in { events, sql in try await events.roster(change, on: sql) } }
        on.on(MatchEvent.updated) { changed, _ in { events, sql in try await events.match(changed.match, over: false, on: sql) } }
        on.on(MatchEvent.finished) { changed, _ in { events, sql in try await events.match(changed.match, over: true, on: sql) } }
        on.on(ModerationEvent.caseDecided) { decided, _ in { events, sql in try await events.moderated(decided, on: sql) } }
        on.on(ModerationEvent.subjectHidden) { change, _ in { events, sql in try await events.withhold(change, on: sql) } }
        on.on(BettingEvent.ticketPlaced) { placed, _ in { events, sql in try await events.share(placed, on: sql) } }
    }

    /// A ticket its owner shared is posted in the global room as their message, once: its
    /// `clientMessageId` is the ticket's, so a redelivered event finds it there.
    private func share(_ placed: BettingEvent.TicketChanged, on sql: any SQLDatabase) async throws {
        guard placed.shared, let global = try await rooms.room(kind: .global, subject: Rooms.globalSubject, on: sql) else { return }
        let owner = placed.ownerId, clientMessageId = "ticket-\(placed.ticket.id)"
        guard try await !messages.posted(in: global.id, by: owner, clientMessageId: clientMessageId, on: sql) else { return }
        let name = try await people.names(of: [owner], on: sql)[owner] ?? Messages.unnamedPlayer
        let text = String(Self.sharedTicket(placed.ticket).prefix(ChatMessageLimits.text.length.upperBound))
        _ = try await messages.post(text, clientMessageId: clientMessageId, to: global.id, by: owner, named: name, on: sql)
    }

    /// A shared ticket as it reads in the chat.
    static func sharedTicket(_ ticket: Ticket) -> String {
        "🎟️ My ticket: \(TicketWording.summary(ticket)). \(TicketWording.legs(ticket))."
    }

    private func team(_ team: Team, created: Bool, on sql: any SQLDatabase) async throws {
        let room = try await rooms.upsert(
            kind: .team, subject: team.id.description, name: team.name, startsAt: nil, endedAt: nil, at: now(), on: sql)
        if created { _ = try await rooms.addMember(team.managerId, to: room.id, on: sql) }
    }

    private func teamDeleted(_ team: TeamID, on sql: any SQLDatabase) async throws {
        guard let room = try await rooms.room(kind: .team, subject: team.description, on: sql) else { return }
        for member in try await rooms.members(of: room.id, on: sql) { try await remove(member, from: room, on: sql) }
        try await rooms.close(room.id, at: now(), on: sql)
    }

    private func membership(_ change: CatalogEvent.MembershipChanged, on sql: any SQLDatabase) async throws {
        guard let room = try await rooms.room(kind: .team, subject: change.teamId.description, on: sql) else { return }
        if change.role?.isMember == true {
            _ = try await rooms.addMember(change.userId, to: room.id, on: sql)
        } else {
            try await remove(change.userId, from: room, on: sql)
        }
    }

    private func game(_ changed: GameEvent.GameChanged, on sql: any SQLDatabase) async throws {
        let game = changed.game
        let room = try await rooms.upsert(
            kind: .game, subject: game.id.description, name: Self.roomName(of: game), startsAt: game.startsAt, endedAt: nil, at: now(),
            on: sql)
        for member in [game.organizerId] + changed.invited { _ = try await rooms.addMember(member, to: room.id, on: sql) }
    }

    private func roster(_ change: GameEvent.RosterChanged, on sql: any SQLDatabase) async throws {
        guard let room = try await rooms.room(kind: .game, subject: change.gameId.description, on: sql) else { return }
        if let status = change.status, Self.gameRoomStatuses.contains(status) {
            _ = try await rooms.addMember(change.userId, to: room.id, on: sql)
        } else {
            try await remove(change.userId, from: room, on: sql)
        }
        for promoted in change.promoted { _ = try await rooms.addMember(promoted, to: room.id, on: sql) }
    }

    /// A game's room is named by its two teams; a team's own game by the team and its start in the
    /// game's time zone ("Nina's Net · Sat 12 Dec 18:00"), so it is told apart from the team's room.
    static func roomName(of game: Game) -> String {
        guard game.homeTeamName == nil || game.awayTeamName == nil, game.teamName != nil else { return game.displayName }
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: "en_GB"))
            .weekday(.abbreviated).day().month(.abbreviated).hour(.twoDigits(amPM: .omitted)).minute()
        style.timeZone = game.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return "\(game.displayName) · \(game.startsAt.formatted(style))"
    }

    /// A match's room, named by its teams, closed once it is over.
    private func match(_ match: Match, over: Bool, on sql: any SQLDatabase) async throws {
        _ = try await rooms.upsert(
            kind: .match, subject: match.id.description, name: "\(match.home.name) – \(match.away.name)", startsAt: match.kickoff,
            endedAt: over ? match.updatedAt : nil, at: now(), on: sql)
    }

    /// Takes `user` out of the room and tells their sockets.
    /// A deleted account: each of its messages becomes a tombstone (announced, so open sockets show
    /// it; seqs stay as they were), all of them under a former player's name; it leaves every room
    /// (a direct room stays, for the other player to read, under that name too), and its name, blocks
    /// and read markers are forgotten.
    /// A moderator's decision: a removed message becomes a tombstone for everyone (history and live
    /// sockets); a suspension or ban with `removeMessages` does that to every message of the player.
    private func moderated(_ decided: ModerationEvent.CaseDecided, on sql: any SQLDatabase) async throws {
        if decided.action == .remove, decided.subject.type == .message {
            let id = ChatMessageID(decided.subject.id.uuid)
            if let message = try await messages.standing(id, on: sql) {
                try await tombstone(id, in: message.roomId, on: sql)
            }
        }
        if decided.removeMessages == true, decided.action == .suspend || decided.action == .ban, let owner = decided.ownerId {
            for (id, room) in try await messages.standing(from: owner, on: sql) { try await tombstone(id, in: room, on: sql) }
        }
    }

    /// A message enough players reported is withheld (no text, `hidden: true`) until a moderator
    /// decides; any decision but removal shows it again. Open sockets get it as an edit either way.
    private func withhold(_ change: ModerationEvent.SubjectHidden, on sql: any SQLDatabase) async throws {
        guard change.subject.type == .message else { return }
        let id = ChatMessageID(change.subject.id.uuid)
        guard let message = try await messages.standing(id, on: sql) else { return }
        let version = try await rooms.nextVersion(of: message.roomId, on: sql)
        try await messages.withhold(id, change.hidden, in: message.roomId, version: version, on: sql)
    }

    private func tombstone(_ id: ChatMessageID, in room: RoomID, on sql: any SQLDatabase) async throws {
        try await messages.tombstone(id, in: room, version: try await rooms.nextVersion(of: room, on: sql), on: sql)
    }

    private func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        for (id, room) in try await messages.standing(from: user, on: sql) { try await tombstone(id, in: room, on: sql) }
        try await messages.renameSender(user, to: Self.formerPlayer, on: sql)
        for room in try await rooms.memberships(of: user, on: sql) { try await remove(user, from: room, on: sql) }
        try await people.forget(user, on: sql)
        // A direct room stays for the player who remains, to read, named as the messages are.
        try await people.setName(Self.formerPlayer, of: user, on: sql)
    }

    /// The name a deleted account's messages are shown under.
    static let formerPlayer = ShownWords.formerPlayer.english

    private func remove(_ user: UserID, from room: StoredRoom, on sql: any SQLDatabase) async throws {
        guard try await rooms.removeMember(user, from: room.id, on: sql) else { return }
        let version = try await rooms.nextVersion(of: room.id, on: sql)
        try await messages.announce(RoomChange(version: version, kind: .left, messageID: nil, userID: user), in: room.id, on: sql)
    }
}
