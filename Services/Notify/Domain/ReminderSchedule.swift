import Foundation

/// When a game's reminders are due. Pure: a kickoff, a time zone and the rules in, times out.
struct ReminderSchedule: Equatable, Sendable {
    /// The morning reminder's hour on game day, in the game's time zone.
    var morningHour: Int
    /// How long before kickoff the last reminder goes (time-sensitive).
    var before: TimeInterval
    /// How long before kickoff a player invited who has not answered is asked to (`notify.rsvp.remind.before`).
    var answerBefore: TimeInterval = 48 * 3600

    enum Kind: String, CaseIterable, Sendable {
        /// Game day, in the morning.
        case gameDay
        /// Shortly before kickoff.
        case soon
        /// Asking a player invited who has not answered yet.
        case answer
    }

    /// Each kind's due time for a game changed at `changedAt`, leaving out the morning one when
    /// kickoff comes before it (or just after: the "soon" one says it all) and any already past when
    /// the change was made. A change that reaches notify late keeps the reminders that were still to
    /// come when it was made: those now past fall due at once (only the last, when both are), and
    /// none once kickoff has passed.
    ///
    /// A player who has not answered gets one reminder instead, `answerBefore` kickoff: none when the
    /// game was planned or moved closer than that (its invitation, or its change, was the reminder).
    func dueTimes(kickoff: Date, timeZone: TimeZone, changedAt: Date, now: Date, answered: Bool = true) -> [Kind: Date] {
        guard kickoff > now else { return [:] }
        guard answered else {
            let ask = kickoff.addingTimeInterval(-answerBefore)
            return ask > changedAt ? [.answer: ask] : [:]
        }
        var due: [Kind: Date] = [:]
        let soon = kickoff.addingTimeInterval(-before)
        if soon > changedAt { due[.soon] = soon }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if let morning = calendar.date(bySettingHour: morningHour, minute: 0, second: 0, of: kickoff), morning < soon,
            morning > changedAt, soon > now
        {
            due[.gameDay] = morning
        }
        return due
    }
}
