import Foundation

/// When a game's reminders are due. Pure: a kickoff, a time zone and the rules in, times out.
struct ReminderSchedule: Equatable, Sendable {
    /// The morning reminder's hour on game day, in the game's time zone.
    var morningHour: Int
    /// How long before kickoff the last reminder goes (time-sensitive).
    var before: TimeInterval

    enum Kind: String, CaseIterable, Sendable {
        /// Game day, in the morning.
        case gameDay
        /// Shortly before kickoff.
        case soon
    }

    /// Each kind's due time, leaving out the morning one when kickoff comes before it (or just
    /// after: the "soon" one says it all) and any already past at `now`.
    func dueTimes(kickoff: Date, timeZone: TimeZone, now: Date) -> [Kind: Date] {
        var due: [Kind: Date] = [:]
        let soon = kickoff.addingTimeInterval(-before)
        if soon > now { due[.soon] = soon }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if let morning = calendar.date(bySettingHour: morningHour, minute: 0, second: 0, of: kickoff), morning < soon, morning > now {
            due[.gameDay] = morning
        }
        return due
    }
}
