import Contracts
import Foundation
import ServiceHTTP
import Testing

@testable import GamesService

/// The dates of a weekly series, counted in the game's time zone.
@Suite("Weekly series of games")
struct GameSeriesTests {
    static let tallinn = TimeZone(identifier: "Europe/Tallinn")!
    /// Tuesday 20 October 2026, 19:00 in Tallinn (summer time, UTC+3): the clocks go back on the 25th.
    static let training = ISO8601DateFormatter().date(from: "2026-10-20T16:00:00Z")!

    static func starts(_ rule: GameRepeat) throws -> [Date] {
        try GameSeries.starts(from: training, repeating: rule, in: tallinn).get()
    }

    static func field(_ rule: GameRepeat) -> String? {
        guard case .failure(.validation(let errors)) = GameSeries.starts(from: training, repeating: rule, in: tallinn) else { return nil }
        return errors.first?.field
    }

    @Test("a week later is the same local time, across the end of summer time")
    func sameLocalTime() throws {
        let starts = try Self.starts(GameRepeat(count: 3))
        #expect(starts.count == 3 && starts[0] == Self.training)
        // 19:00 EEST then 19:00 EET: 169 hours.
        #expect(starts[1].timeIntervalSince(starts[0]) == 169 * 3600)
        #expect(starts[2].timeIntervalSince(starts[1]) == 168 * 3600)
    }

    @Test("until takes every week whose game starts on or before it; a start exactly at until is in")
    func until() throws {
        let lastIn = Self.training.addingTimeInterval(2 * 168 * 3600 + 3600)
        #expect(try Self.starts(GameRepeat(until: lastIn)).count == 3)
        #expect(try Self.starts(GameRepeat(until: Self.training)) == [Self.training])
    }

    @Test("a series says count or until, not both, and is at most 52 games")
    func limits() throws {
        #expect(try Self.starts(GameRepeat(count: GameRepeat.maxGames)).count == 52)
        #expect(Self.field(GameRepeat(count: 53)) == "repeat.count")
        #expect(Self.field(GameRepeat(count: 0)) == "repeat.count")
        #expect(Self.field(GameRepeat()) == "repeat")
        #expect(Self.field(GameRepeat(count: 2, until: Self.training)) == "repeat")
        #expect(Self.field(GameRepeat(until: Self.training.addingTimeInterval(-1))) == "repeat.until")
        #expect(Self.field(GameRepeat(until: Self.training.addingTimeInterval(60 * 7 * 86_400))) == "repeat.until")
    }

    @Test("moving one game a day on and half an hour earlier moves a later one the same way in local time")
    func moved() throws {
        let later = try Self.starts(GameRepeat(count: 2))[1]
        // Tuesday 19:00 to Wednesday 18:30 (summer time), so the next Tuesday 19:00 (winter time) goes to Wednesday 18:30.
        let moved = GameSeries.moved(later, from: Self.training, to: Self.training.addingTimeInterval(86_400 - 1800), in: Self.tallinn)
        #expect(moved == ISO8601DateFormatter().date(from: "2026-10-28T16:30:00Z"))
        #expect(GameSeries.moved(later, from: Self.training, to: Self.training, in: Self.tallinn) == later)
    }
}
