import Contracts
import Foundation
import ServiceHTTP

/// The dates of a weekly series, and how a change of one game's start carries to the later ones.
/// Weeks are counted in the game's time zone, so a 19:00 training stays at 19:00 across a change of
/// daylight saving time (a week is then 167 or 169 hours).
enum GameSeries {
    /// The start of each game of the series `first` opens, `first` among them; a problem naming the
    /// field when the repeat says too many games, none, or both `count` and `until`.
    static func starts(from first: Date, repeating rule: GameRepeat, in zone: TimeZone) -> Result<[Date], CommonError> {
        let calendar = Self.calendar(in: zone)
        func start(_ week: Int) -> Date { calendar.date(byAdding: .weekOfYear, value: week, to: first) ?? first }
        switch (rule.count, rule.until) {
        case (nil, nil): return .failure(.invalid("repeat", "needs count or until"))
        case (.some, .some): return .failure(.invalid("repeat", "takes count or until, not both"))
        case (let count?, nil):
            guard (1...GameRepeat.maxGames).contains(count) else {
                return .failure(.invalid("repeat.count", "must be from 1 to \(GameRepeat.maxGames)"))
            }
            return .success((0..<count).map(start))
        case (nil, let until?):
            guard until >= first else { return .failure(.invalid("repeat.until", "must not be before startsAt")) }
            let starts = (0...GameRepeat.maxGames).map(start).filter { $0 <= until }
            guard starts.count <= GameRepeat.maxGames else {
                return .failure(.invalid("repeat.until", "gives more than \(GameRepeat.maxGames) games"))
            }
            return .success(starts)
        }
    }

    /// Where a later game of the series starts when one of its games moves from `old` to `new`: the
    /// same number of days on, at `new`'s local time of day.
    static func moved(_ start: Date, from old: Date, to new: Date, in zone: TimeZone) -> Date {
        let calendar = Self.calendar(in: zone)
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: old), to: calendar.startOfDay(for: new)).day ?? 0
        let time = calendar.dateComponents([.hour, .minute, .second], from: new)
        guard let day = calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: start)),
            let moved = calendar.date(
                bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: day,
                matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
        else { return start.addingTimeInterval(new.timeIntervalSince(old)) }
        return moved
    }

    private static func calendar(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
