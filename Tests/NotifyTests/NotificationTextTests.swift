import Contracts
import Foundation
import Testing

@testable import NotifyService

/// Notify's texts in English, Estonian and Italian: every one translated, with the placeholders its
/// English has, and dates in each language's format.
@Suite("Notification texts in each language")
struct NotificationTextTests {
    @Test("an Estonian and an Italian player read their own language, the game's time in its zone and their format")
    func languages() {
        let kickoff = Date(timeIntervalSince1970: 1_800_000_000)  // Friday 15 January 2027, 08:00 UTC
        let tallinn = TimeZone(identifier: "Europe/Tallinn")!
        let texts = NotificationText.newGame("Kalev Spikers", startsAt: kickoff, timeZone: tallinn)
        #expect(texts[.en] == .init(title: "New game: Kalev Spikers", body: "Fri 15 Jan at 10:00. Are you in?"))
        #expect(texts[.et].title == "Uus mäng: Kalev Spikers" && texts[.et].body.contains("jaan") && texts[.et].body.contains("10:00"))
        #expect(texts[.it] == .init(title: "Nuova partita: Kalev Spikers", body: "ven 15 gen, 10:00. Ci sei?"))
        let folded = NotificationText.folded(
            NotificationText.Texts { _ in .init(title: "Kalev Spikers", body: "Chloe: 19:00") }, more: 3)
        #expect(folded[.en].body == "Chloe: 19:00 (+3 more)" && folded[.et].body == "Chloe: 19:00 (+3 veel)")
        let banned = NotificationText.actionAgainst(.suspend, subject: .message, reason: "spam", until: kickoff)
        #expect(banned?[.en].body == "Your account is suspended until 15 Jan 2027 at 08:00 UTC: spam")
        #expect(banned?[.it].body.hasPrefix("Il tuo account è sospeso fino al 15 gen 2027") == true)
        // Amounts in each language's currency format, Foundation's.
        #expect(NotificationText.money(4950, "EUR", .en) == "€49.50")
        #expect(NotificationText.money(4950, "EUR", .et).filter { !$0.isWhitespace } == "49,50€")
        #expect(NotificationText.money(12_345_678, "EUR", .it).filter { !$0.isWhitespace } == "123.456,78€")
    }

    @Test("a request's Accept-Language and a profile's locale choose a language Huddle writes, English otherwise")
    func choosing() {
        #expect(Language(tag: "et-EE") == .et && Language(tag: "IT") == .it && Language(tag: "fi") == .en && Language(tag: nil) == .en)
        #expect(Language(acceptLanguage: "it-IT,it;q=0.9,en;q=0.8") == .it)
        #expect(Language(acceptLanguage: "fi-FI, et;q=0.7, en;q=0.9") == .en)
        #expect(Language(acceptLanguage: "fi, de;q=0.5") == nil && Language(acceptLanguage: "et;q=0, it") == .it)
    }
}
