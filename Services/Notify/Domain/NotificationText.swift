import Contracts
import Foundation
import ServerContracts
import ServiceHTTP

/// What a notification says, for each thing that notifies, in every language notify writes
/// (`TextCatalogue.notifications`: `Resources/Notifications.xcstrings`), with dates and times in the game's time zone and
/// the language's format. Pure: names and times in, texts out.
enum NotificationText {
    struct Text: Codable, Equatable, Sendable {
        let title: String
        let body: String
    }

    /// One notification in each language; a recipient reads theirs (`Notifications.deliver`).
    struct Texts: Codable, Equatable, Sendable {
        let byLanguage: [Language: Text]

        init(_ write: (Language) -> Text) {
            byLanguage = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, write($0)) })
        }

        subscript(_ language: Language) -> Text { byLanguage[language] ?? byLanguage[.en] ?? Text(title: "", body: "") }

        /// The English title and body.
        var title: String { self[.en].title }
        var body: String { self[.en].body }

        init(from decoder: any Decoder) throws {
            let stored = try [String: Text](from: decoder)
            byLanguage = Dictionary(uniqueKeysWithValues: stored.compactMap { key, text in Language(rawValue: key).map { ($0, text) } })
        }

        func encode(to encoder: any Encoder) throws {
            try Dictionary(uniqueKeysWithValues: byLanguage.map { ($0.key.rawValue, $0.value) }).encode(to: encoder)
        }

        /// Each language's text changed by `change`.
        func map(_ change: (Text, Language) -> Text) -> Texts { Texts { change(self[$0], $0) } }
    }

    private static func s(_ key: String, _ language: Language, _ arguments: any CVarArg...) -> String {
        TextCatalogue.notifications.text(key, language, arguments)
    }

    private static func texts(_ title: String, _ body: String, _ arguments: (Language) -> (title: [any CVarArg], body: [any CVarArg]))
        -> Texts
    {
        Texts { language in
            let (titleArguments, bodyArguments) = arguments(language)
            return Text(
                title: TextCatalogue.notifications.text(title, language, titleArguments),
                body: TextCatalogue.notifications.text(body, language, bodyArguments))
        }
    }

    static func newGame(_ game: String, startsAt: Date, timeZone: TimeZone) -> Texts {
        texts("newGame.title", "newGame.body") { ([game], [kickoff(startsAt, in: timeZone, $0)]) }
    }

    static func teamInvitation(team: String, manager: String?) -> Texts {
        texts("teamInvitation.title", "teamInvitation.body") { ([], [manager ?? s("someone.manager", $0), team]) }
    }

    static func gameInvitation(game: String, organizer: String?) -> Texts {
        texts("gameInvitation.title", "gameInvitation.body") { ([], [organizer ?? s("someone.organiser", $0), game]) }
    }

    static func joinRequest(from player: String?, to place: String) -> Texts {
        texts("joinRequest.title", "joinRequest.body") { ([], [player ?? s("someone.player", $0), place]) }
    }

    static func becameManager(team: String) -> Texts {
        texts("becameManager.title", "becameManager.team.body") { _ in ([team], []) }
    }

    /// A league asks a manager's team to join it.
    static func leagueRequest(league: String, team: String) -> Texts {
        texts("leagueRequest.title", "leagueRequest.body") { _ in ([], [league, team]) }
    }

    static func becameManager(league: String) -> Texts {
        texts("becameManager.title", "becameManager.league.body") { _ in ([league], []) }
    }

    static func newCase(_ subject: SubjectType, reason: ReportReason) -> Texts {
        texts("newCase.title", "newCase.body") { ([], [s("subject.\(subject.rawValue)", $0), s("reason.\(reason.rawValue)", $0)]) }
    }

    static func reportOutcome(_ action: ModerationAction, subject: SubjectType) -> Texts {
        texts("report.title", "report.\(action.rawValue)") { ([], [s("subject.\(subject.rawValue)", $0)]) }
    }

    /// What the owner is told; nothing for a dismissal.
    static func actionAgainst(_ action: ModerationAction, subject: SubjectType, reason: String, until: Date?) -> Texts? {
        let what = { (language: Language) in s("own.\(subject.rawValue)", language) }
        switch action {
        case .dismiss: return nil
        case .remove: return texts("removed.title", "removed.body") { ([], [what($0), reason]) }
        case .warn: return texts("warned.title", "warned.body") { ([], [what($0), reason]) }
        case .suspend:
            guard let until else { return texts("suspended.title", "suspended.body") { _ in ([], [reason]) } }
            return texts("suspended.title", "suspendedUntil.body") { ([], [day(until, $0), reason]) }
        case .ban: return texts("banned.title", "banned.body") { _ in ([], [reason]) }
        }
    }

    static func teamRequestApproved(team: String) -> Texts {
        texts("requestApproved.title", "requestApproved.team") { _ in ([], [team]) }
    }

    static func gameRequestApproved(game: String, waitlisted: Bool) -> Texts {
        texts("requestApproved.title", waitlisted ? "requestApproved.waitlisted" : "requestApproved.going") { _ in ([], [game]) }
    }

    static func promoted(game: String) -> Texts {
        texts("promoted.title", "promoted.body") { _ in ([], [game]) }
    }

    static func addedToRound(by starter: String?, course: String) -> Texts {
        texts("addedToRound.title", "addedToRound.body") { ([], [starter ?? s("someone.player", $0), course]) }
    }

    static func gameDay(_ game: String, kickoff: Date, timeZone: TimeZone) -> Texts {
        texts("gameDay.title", "gameDay.body") { ([game], [time(kickoff, in: timeZone, $0)]) }
    }

    static func startsSoon(_ game: String, kickoff: Date, timeZone: TimeZone) -> Texts {
        texts("startsSoon.title", "startsSoon.body") { ([game], [time(kickoff, in: timeZone, $0)]) }
    }

    /// The receipt in my inbox for a ticket I placed (its legs name teams and odds, as the provider does).
    static func ticketPlaced(_ ticket: Ticket) -> Texts {
        texts("ticketPlaced.title", "ticket.summary") { ([], [summary(ticket, $0), TicketWording.legs(ticket)]) }
    }

    /// What came of a ticket of mine; nil while it is open.
    static func ticketSettled(_ ticket: Ticket) -> Texts? {
        let paid = { money(ticket.payout ?? 0, ticket.currency, $0) }
        switch ticket.status {
        case .open: return nil
        case .won: return texts("ticketWon.title", "ticketWon.body") { ([], [paid($0), TicketWording.legs(ticket)]) }
        case .void: return texts("ticketVoid.title", "ticketVoid.body") { ([], [paid($0)]) }
        case .lost: return texts("ticketLost.title", "ticketLost.body") { _ in ([], [TicketWording.legs(ticket)]) }
        }
    }

    static func rsvpReminder(_ game: String, startsAt: Date, timeZone: TimeZone) -> Texts {
        texts("rsvpReminder.title", "rsvpReminder.body") { ([game], [kickoff(startsAt, in: timeZone, $0)]) }
    }

    static func gameCancelled(_ game: String, startsAt: Date, timeZone: TimeZone) -> Texts {
        texts("gameCancelled.title", "gameCancelled.body") { ([game], [kickoff(startsAt, in: timeZone, $0)]) }
    }

    /// A game moved in time (`from` its former start), in place, or both.
    static func gameChanged(_ game: String, from: Date?, to startsAt: Date, place: Location?, timeZone: TimeZone) -> Texts {
        Texts { language in
            let when = from.map {
                s("gameChanged.moved", language, kickoff($0, in: timeZone, language), kickoff(startsAt, in: timeZone, language))
            }
            let whereTo = place.map { s("gameChanged.place", language, $0.address ?? String(format: "%.5f, %.5f", $0.lat, $0.lng)) }
            return Text(title: s("gameChanged.title", language, game), body: [when, whereTo].compactMap { $0 }.joined(separator: " "))
        }
    }

    /// A chat message: the room (the sender, for a direct room) as the title, who said what as the body.
    static func chatMessage(_ push: ChatMessagePush) -> Texts {
        Texts { language in
            let said = said(push, language)
            return Text(title: push.roomName, body: push.roomKind == .direct ? said : s("chat.said", language, push.senderName, said))
        }
    }

    /// A push that stands for `more` messages besides the one it shows.
    static func folded(_ texts: Texts, more: Int) -> Texts {
        guard more > 0 else { return texts }
        return texts.map { text, language in Text(title: text.title, body: s("chat.more", language, text.body, more)) }
    }

    /// A message naming me.
    static func mention(_ push: ChatMessagePush) -> Texts {
        Texts { language in
            Text(
                title: push.roomKind == .direct ? push.senderName : s("mention.title", language, push.senderName, push.roomName),
                body: said(push, language))
        }
    }

    /// The message's text, cut to what a lock screen shows, or its photos.
    private static func said(_ push: ChatMessagePush, _ language: Language) -> String {
        let text = push.text.count > 180 ? push.text.prefix(179) + "…" : Substring(push.text)
        guard text.isEmpty else { return String(text) }
        return push.photoCount == 1 ? s("chat.photo", language) : s("chat.photos", language, push.photoCount)
    }

    static func newFollower(_ follower: String) -> Texts {
        texts("newFollower.title", "newFollower.body") { _ in ([], [follower]) }
    }

    /// "Stake €10.00 at odds 4.950, pays €49.50" (the legs, "Levadia v Flora: 1 @ 1.800", read the
    /// same in every language: team names and the pick's 1, X or 2).
    private static func summary(_ ticket: Ticket, _ language: Language) -> String {
        s(
            "ticket.stake", language, money(ticket.stake, ticket.currency, language), "\(ticket.totalOdds)",
            money(ticket.potentialWinnings, ticket.currency, language))
    }

    /// Minor units as the language writes an amount of `currency` (Foundation's currency format).
    static func money(_ minor: Int, _ currency: String, _ language: Language) -> String {
        (Decimal(minor) / 100).formatted(.currency(code: currency).locale(Locale(identifier: locales[language] ?? "en_GB")))
    }

    /// The zone a game is played in: its IANA name as the app sent it, UTC when absent.
    static func zone(_ identifier: String?) -> TimeZone {
        identifier.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }

    /// "18:00" in the game's time zone.
    static func time(_ date: Date, in timeZone: TimeZone, _ language: Language = .en) -> String {
        formatted(date, timeZone, language) { $0.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits) }
    }

    /// "Sat 28 Nov at 18:00" (`L, 28. nov, 18:00`; `sab 28 nov, 18:00`) in the game's time zone.
    static func kickoff(_ date: Date, in timeZone: TimeZone, _ language: Language = .en) -> String {
        formatted(date, timeZone, language) {
            $0.weekday(.abbreviated).day().month(.abbreviated).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
        }
    }

    /// "28 Nov 2026 at 18:00 UTC": when a suspension ends.
    static func day(_ date: Date, _ language: Language) -> String {
        formatted(date, .gmt, language) { $0.day().month(.abbreviated).year().hour(.twoDigits(amPM: .omitted)).minute(.twoDigits) }
    }

    /// The language's way (Foundation's formats for its locale), in `timeZone`, with "UTC" added when
    /// that is it, so it is not mistaken for local time.
    private static func formatted(
        _ date: Date, _ timeZone: TimeZone, _ language: Language, _ fields: (Date.FormatStyle) -> Date.FormatStyle
    ) -> String {
        let style = fields(Date.FormatStyle(locale: Locale(identifier: locales[language] ?? "en_GB"), timeZone: timeZone))
        let text = date.formatted(style)
        return timeZone.identifier == "UTC" || timeZone.identifier == "GMT" ? "\(text) UTC" : text
    }

    /// The region whose formats each language is written with (British English: a 24-hour clock and
    /// the day before the month, as the players in Tallinn, Tartu, Rome and Casey read them).
    private static let locales: [Language: String] = [.en: "en_GB", .et: "et_EE", .it: "it_IT"]
}
