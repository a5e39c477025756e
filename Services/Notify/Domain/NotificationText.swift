import Contracts
import Foundation
import ServerContracts

/// What a notification says, for each thing that notifies. Pure: names and times in, text out.
enum NotificationText {
    struct Text: Equatable {
        let title: String
        let body: String
    }

    static func newGame(_ game: String, startsAt: Date, timeZone: TimeZone) -> Text {
        Text(title: "New game: \(game)", body: "\(kickoff(startsAt, in: timeZone)). Are you in?")
    }

    static func teamInvitation(team: String, manager: String?) -> Text {
        Text(title: "Team invitation", body: "\(manager ?? "The manager") invited you to join \(team).")
    }

    static func gameInvitation(game: String, organizer: String?) -> Text {
        Text(title: "Game invitation", body: "\(organizer ?? "The organiser") invited you to play: \(game).")
    }

    static func joinRequest(from player: String?, to place: String) -> Text {
        Text(title: "Join request", body: "\(player ?? "A player") asked to join \(place).")
    }

    static func becameManager(team: String) -> Text {
        Text(title: "You manage \(team) now", body: "Its manager left Huddle and you were its longest-standing player.")
    }

    static func becameManager(league: String) -> Text {
        Text(title: "You manage \(league) now", body: "Its manager left Huddle and you manage one of its teams.")
    }

    static func newCase(_ subject: SubjectType, reason: ReportReason) -> Text {
        Text(
            title: "New report",
            body: "A \(subject == .user ? "player" : subject.rawValue) was reported for \(reason.rawValue); it waits in the queue.")
    }

    static func reportOutcome(_ action: ModerationAction, subject: SubjectType) -> Text {
        let what = subject == .user ? "the player" : "the \(subject.rawValue)"
        let outcome =
            switch action {
            case .dismiss: "A moderator looked at \(what) you reported and found nothing against Huddle's rules."
            case .remove: "A moderator removed \(what) you reported."
            case .warn: "A moderator warned the player behind \(what) you reported."
            case .suspend: "A moderator suspended the player behind \(what) you reported."
            case .ban: "A moderator banned the player behind \(what) you reported."
            }
        return Text(title: "Your report", body: outcome + " Thank you for reporting it.")
    }

    /// What the owner is told; nothing for a dismissal.
    static func actionAgainst(_ action: ModerationAction, subject: SubjectType, reason: String, until: Date?) -> Text? {
        let what = subject == .user ? "your profile" : "your \(subject.rawValue)"
        switch action {
        case .dismiss: return nil
        case .remove: return Text(title: "Removed by a moderator", body: "A moderator removed \(what): \(reason)")
        case .warn: return Text(title: "A warning from Huddle", body: "A moderator warned you about \(what): \(reason)")
        case .suspend:
            let end = until.map { " until \(format($0, "d MMM yyyy, HH:mm", TimeZone(identifier: "UTC")!)) UTC" } ?? ""
            return Text(title: "Account suspended", body: "Your account is suspended\(end): \(reason)")
        case .ban: return Text(title: "Account banned", body: "Your account is banned: \(reason)")
        }
    }

    static func teamRequestApproved(team: String) -> Text {
        Text(title: "Request approved", body: "You're in \(team).")
    }

    static func gameRequestApproved(game: String, waitlisted: Bool) -> Text {
        Text(title: "Request approved", body: waitlisted ? "You're on the waiting list for \(game)." : "You're going to \(game).")
    }

    static func promoted(game: String) -> Text {
        Text(title: "You're in", body: "A place freed up in \(game): you're going.")
    }

    static func addedToRound(by starter: String?, course: String) -> Text {
        Text(title: "Round started", body: "\(starter ?? "A player") added you to a round at \(course).")
    }

    static func gameDay(_ game: String, kickoff: Date, timeZone: TimeZone) -> Text {
        Text(title: "Game day: \(game)", body: "Kickoff at \(time(kickoff, in: timeZone)).")
    }

    static func startsSoon(_ game: String, kickoff: Date, timeZone: TimeZone) -> Text {
        Text(title: "\(game) starts soon", body: "Kickoff at \(time(kickoff, in: timeZone)). See you there!")
    }

    /// The receipt in my inbox for a ticket I placed.
    static func ticketPlaced(_ ticket: Ticket) -> Text {
        Text(title: "Ticket placed", body: "\(TicketWording.summary(ticket)). \(TicketWording.legs(ticket)).")
    }

    /// What came of a ticket of mine; nil while it is open.
    static func ticketSettled(_ ticket: Ticket) -> Text? {
        let paid = TicketWording.amount(ticket.payout ?? 0, ticket.currency)
        switch ticket.status {
        case .open: return nil
        case .won: return Text(title: "Your ticket won", body: "\(paid) is in your wallet. \(TicketWording.legs(ticket)).")
        case .void: return Text(title: "Your ticket is void", body: "Your stake of \(paid) is back in your wallet.")
        case .lost: return Text(title: "Your ticket lost", body: "\(TicketWording.legs(ticket)). Better luck next time.")
        }
    }

    static func rsvpReminder(_ game: String, startsAt: Date, timeZone: TimeZone) -> Text {
        Text(title: "Are you in? \(game)", body: "\(kickoff(startsAt, in: timeZone)). Your team is waiting for your answer.")
    }

    static func gameCancelled(_ game: String, startsAt: Date, timeZone: TimeZone) -> Text {
        Text(title: "Cancelled: \(game)", body: "The game on \(kickoff(startsAt, in: timeZone)) will not be played.")
    }

    /// A game moved in time (`from` its former start), in place, or both.
    static func gameChanged(_ game: String, from: Date?, to startsAt: Date, place: Location?, timeZone: TimeZone) -> Text {
        let when = from.map { "Moved from \(kickoff($0, in: timeZone)) to \(kickoff(startsAt, in: timeZone))." }
        let whereTo = place.map { "Now at \($0.address ?? String(format: "%.5f, %.5f", $0.lat, $0.lng))." }
        return Text(title: "Changed: \(game)", body: [when, whereTo].compactMap { $0 }.joined(separator: " "))
    }

    /// A chat message: the room (the sender, for a direct room) as the title, who said what as the body.
    static func chatMessage(_ push: ChatMessagePush) -> Text {
        let said = said(push)
        return Text(title: push.roomName, body: push.roomKind == .direct ? said : "\(push.senderName): \(said)")
    }

    /// A push that stands for `more` messages besides the one it shows.
    static func folded(_ text: Text, more: Int) -> Text {
        more > 0 ? Text(title: text.title, body: "\(text.body) (+\(more) more)") : text
    }

    /// A message naming me.
    static func mention(_ push: ChatMessagePush) -> Text {
        Text(
            title: push.roomKind == .direct ? push.senderName : "\(push.senderName) in \(push.roomName)",
            body: said(push))
    }

    /// The message's text, cut to what a lock screen shows, or its photos.
    private static func said(_ push: ChatMessagePush) -> String {
        let text = push.text.count > 180 ? push.text.prefix(179) + "…" : Substring(push.text)
        guard text.isEmpty else { return String(text) }
        return push.photoCount == 1 ? "📷 Photo" : "📷 \(push.photoCount) photos"
    }

    static func newFollower(_ follower: String) -> Text {
        Text(title: "New follower", body: "\(follower) follows you.")
    }

    /// The zone a game is played in: its IANA name as the app sent it, UTC when absent.
    static func zone(_ identifier: String?) -> TimeZone {
        identifier.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }

    /// "18:00" in the game's time zone.
    static func time(_ date: Date, in timeZone: TimeZone) -> String { format(date, "HH:mm", timeZone) }

    /// "Sat 28 Nov, 18:00" in the game's time zone.
    static func kickoff(_ date: Date, in timeZone: TimeZone) -> String { format(date, "EEE d MMM, HH:mm", timeZone) }

    /// In `timeZone`, with "UTC" added when that is it, so it is not mistaken for local time.
    private static func format(_ date: Date, _ pattern: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        let text = formatter.string(from: date)
        return timeZone.identifier == "UTC" || timeZone.identifier == "GMT" ? "\(text) UTC" : text
    }
}
