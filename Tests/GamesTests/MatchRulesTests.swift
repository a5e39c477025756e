import Contracts
import Foundation
import ServerContracts
import Testing

@testable import GamesService

/// The pure rules of matches: ids, versions, events, which fixtures are followed, when to call.
@Suite("Match rules")
struct MatchRulesTests {
    static let kickoff = Date(timeIntervalSince1970: 1_795_359_600)

    static func report(status: MatchStatus = .notStarted, score: Match.Score = .init(home: 0, away: 0), events: [Match.Event]? = nil)
        -> ReportedMatch
    {
        ReportedMatch(
            fixtureID: 868105, league: .init(id: 39, name: "Premier League", country: "England"), kickoff: kickoff, status: status,
            minute: nil, home: .init(id: 33, name: "Manchester United", logo: nil), away: .init(id: 40, name: "Liverpool", logo: nil),
            score: score, halftime: nil, events: events)
    }

    static let goal = Match.Event(minute: 23, extra: nil, team: .away, type: .goal, detail: "Penalty", player: "M. Salah", assist: nil)

    @Test("a match's id is a version 5 UUID of its fixture id: the same everywhere, different per fixture")
    func derivedIDs() {
        let id = MatchRules.id(ofFixture: 868105)
        #expect(id == MatchRules.id(ofFixture: 868105) && id != MatchRules.id(ofFixture: 868106))
        let text = id.description
        #expect(text[text.index(text.startIndex, offsetBy: 14)] == "5")
        #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]))
    }

    @Test("a match in play goes silent once unreported for the allowed time, since its last report, once; not before kickoff nor after")
    func silence() throws {
        let now = Date()
        let playing = try #require(MatchRules.applying(Self.report(status: .secondHalf), to: nil, at: now))
        let reported = now.addingTimeInterval(-601)
        let silent = try #require(MatchRules.silenced(playing, lastReported: reported, now: now, after: 600))
        #expect(silent.silentSince == reported && silent.version == playing.version + 1 && silent.updatedAt == now)
        #expect(MatchRules.notices(from: playing, to: silent) == [MatchEvent.updated])
        #expect(MatchRules.silenced(silent, lastReported: reported, now: now, after: 600) == nil)
        #expect(MatchRules.silenced(playing, lastReported: now.addingTimeInterval(-599), now: now, after: 600) == nil)
        for status in [MatchStatus.notStarted, .fullTime, .postponed] {
            let match = try #require(MatchRules.applying(Self.report(status: status), to: nil, at: now))
            #expect(MatchRules.silenced(match, lastReported: reported, now: now, after: 600) == nil)
        }
        // The same report again speaks for the match: a version without the mark.
        let spoken = try #require(MatchRules.applying(Self.report(status: .secondHalf), to: silent, at: now))
        #expect(spoken.silentSince == nil && spoken.version == silent.version + 1)
    }

    @Test("a report that changes nothing makes no version; any change, a correction included, is the next one")
    func versions() throws {
        let now = Date()
        let first = try #require(MatchRules.applying(Self.report(), to: nil, at: now))
        #expect(first.version == 1 && first.updatedAt == now && first.id == MatchRules.id(ofFixture: 868105))
        #expect(MatchRules.applying(Self.report(), to: first, at: now.addingTimeInterval(15)) == nil)
        let scored = try #require(
            MatchRules.applying(Self.report(status: .firstHalf, score: .init(home: 0, away: 1), events: [Self.goal]), to: first, at: now))
        #expect(scored.version == 2 && scored.events == [Self.goal])
        // A listing without events keeps them; VAR taking the goal back is a new version.
        #expect(MatchRules.applying(Self.report(status: .firstHalf, score: .init(home: 0, away: 1)), to: scored, at: now) == nil)
        let cancelled = Match.Event(
            minute: 25, extra: nil, team: .away, type: .var, detail: "Goal cancelled", player: "M. Salah", assist: nil)
        let corrected = try #require(
            MatchRules.applying(Self.report(status: .firstHalf, events: [Self.goal, cancelled]), to: scored, at: now))
        #expect(corrected.version == 3 && corrected.score == .init(home: 0, away: 0) && corrected.events.count == 2)
    }

    @Test("updated on a new match and on kickoff, status or score; finished once, on reaching FT, AET, PEN, CANC, ABD, AWD, WO or PST")
    func notices() throws {
        let first = try #require(MatchRules.applying(Self.report(), to: nil, at: Date()))
        #expect(MatchRules.notices(from: nil, to: first) == [MatchEvent.updated])
        var minuteOnly = first
        minuteOnly.minute = 3
        #expect(MatchRules.notices(from: first, to: minuteOnly).isEmpty)
        for status in MatchStatus.finished.union(MatchStatus.called) {
            var ended = first
            ended.status = status
            #expect(MatchRules.notices(from: first, to: ended) == [MatchEvent.updated, MatchEvent.finished])
            var corrected = ended
            corrected.score = .init(home: 1, away: 0)
            #expect(MatchRules.notices(from: ended, to: corrected) == [MatchEvent.updated])
        }
        var live = first
        live.status = .secondHalf
        #expect(MatchRules.notices(from: first, to: live) == [MatchEvent.updated])
    }

    @Test("followed on every tick: in play, or not started within the lead or overdue; not once over")
    func followedLive() {
        let now = Self.kickoff
        #expect(MatchRules.isFollowedLive(status: .secondHalf, kickoff: now.addingTimeInterval(-3000), now: now, lead: 3600))
        #expect(MatchRules.isFollowedLive(status: .notStarted, kickoff: now.addingTimeInterval(1800), now: now, lead: 3600))
        #expect(!MatchRules.isFollowedLive(status: .notStarted, kickoff: now.addingTimeInterval(7200), now: now, lead: 3600))
        #expect(MatchRules.isFollowedLive(status: .notStarted, kickoff: now.addingTimeInterval(-600), now: now, lead: 3600))
        #expect(!MatchRules.isFollowedLive(status: .notStarted, kickoff: now.addingTimeInterval(-7 * 3600), now: now, lead: 3600))
        #expect(!MatchRules.isFollowedLive(status: .fullTime, kickoff: now.addingTimeInterval(-3000), now: now, lead: 3600))
    }

    @Test("tags change with any version and with the list's members")
    func tags() {
        let a = MatchRules.id(ofFixture: 1), b = MatchRules.id(ofFixture: 2)
        #expect(MatchRules.listTag([(a, 1), (b, 1)]) != MatchRules.listTag([(a, 1), (b, 2)]))
        #expect(MatchRules.listTag([(a, 1)]) != MatchRules.listTag([(a, 1), (b, 1)]))
        #expect(
            MatchRules.listTag([(a, 1)]) == MatchRules.listTag([(a, 1)])
                && MatchRules.matchTag(a, version: 1) != MatchRules.matchTag(a, version: 2))
    }

    @Test("a prediction is a version of its own, kept by later reports; one asked is not asked again until the recheck")
    func predictions() throws {
        let report = Self.report()
        let listed = try #require(MatchRules.applying(report, to: nil, at: Self.kickoff.addingTimeInterval(-7200)))
        let chances = Match.Prediction(home: 50, draw: 30, away: 20)
        let predicted = try #require(MatchRules.predicted(listed, chances, at: Self.kickoff.addingTimeInterval(-3600)))
        #expect(predicted.version == listed.version + 1 && predicted.prediction == chances)
        #expect(MatchRules.predicted(predicted, chances, at: Self.kickoff) == nil)
        #expect(MatchRules.applying(Self.report(status: .firstHalf), to: predicted, at: Self.kickoff)?.prediction == chances)

        let now = Self.kickoff.addingTimeInterval(-3600)
        func awaits(_ status: MatchStatus, kickoff: Date = Self.kickoff, askedAt: Date? = nil) -> Bool {
            MatchRules.awaitsPrediction(status: status, kickoff: kickoff, askedAt: askedAt, now: now, ahead: 86_400, recheck: 43_200)
        }
        #expect(awaits(.notStarted))
        #expect(!awaits(.firstHalf))
        #expect(!awaits(.notStarted, kickoff: now.addingTimeInterval(2 * 86_400)))
        #expect(!awaits(.notStarted, askedAt: now.addingTimeInterval(-3600)))
        #expect(awaits(.notStarted, askedAt: now.addingTimeInterval(-43_200)))
    }
}

@Suite("Poll schedule")
struct PollScheduleTests {
    let start = Date(timeIntervalSince1970: 1_795_359_630)

    @Test("ticks come more often than the live interval (to keep the lease); a call is due only once the interval has passed")
    func dueOncePerInterval() {
        var schedule = PollSchedule(dayInterval: 600, liveInterval: 15)
        #expect(schedule.isDue(at: start))
        schedule.sweptDays(at: start)
        schedule.polledLive(at: start)
        #expect(!schedule.isDue(at: start.addingTimeInterval(3)) && !schedule.isDue(at: start.addingTimeInterval(14)))
        #expect(schedule.isDue(at: start.addingTimeInterval(15)))
        schedule.rateLimited(retryAfterSeconds: 60, at: start.addingTimeInterval(15))
        #expect(!schedule.isDue(at: start.addingTimeInterval(30)) && schedule.isDue(at: start.addingTimeInterval(75)))
    }

    @Test("after a 429 no call until Retry-After has passed; a spent allowance waits for the provider's next minute")
    func rateLimits() {
        var schedule = PollSchedule(dayInterval: 600, liveInterval: 15)
        #expect(schedule.mayCall(at: start))
        schedule.rateLimited(retryAfterSeconds: 60, at: start)
        #expect(!schedule.mayCall(at: start.addingTimeInterval(59)) && schedule.mayCall(at: start.addingTimeInterval(60)))
        schedule.answered(remaining: 0, at: start)
        #expect(!schedule.mayCall(at: start.addingTimeInterval(29)) && schedule.mayCall(at: start.addingTimeInterval(30)))
        schedule.answered(remaining: 5, at: start.addingTimeInterval(30))
        #expect(schedule.mayCall(at: start.addingTimeInterval(30)))
    }

    @Test("failures in a row wait one tick, then twice as long each time, at most the day interval; an answer resets it")
    func failures() {
        var schedule = PollSchedule(dayInterval: 100, liveInterval: 15)
        var waits: [TimeInterval] = []
        for _ in 0..<5 {
            schedule.failed(at: start)
            waits.append(schedule.pausedUntil.timeIntervalSince(start))
        }
        #expect(waits == [15, 30, 60, 100, 100])
        schedule.answered(remaining: nil, at: start)
        schedule.failed(at: start)
        #expect(schedule.pausedUntil.timeIntervalSince(start) == 15)
    }

    @Test("days are listed again once the day interval has passed")
    func daySweeps() {
        var schedule = PollSchedule(dayInterval: 600, liveInterval: 15)
        #expect(schedule.isDaySweepDue(at: start))
        schedule.sweptDays(at: start)
        #expect(!schedule.isDaySweepDue(at: start.addingTimeInterval(599)) && schedule.isDaySweepDue(at: start.addingTimeInterval(600)))
    }
}

@Suite("Calendar days")
struct CalendarDayTests {
    @Test("parses real days only, writes them back, and agrees with Foundation's UTC calendar")
    func days() throws {
        #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
        for bad in ["2023-02-29", "2026-13-01", "2026-1-01", "20260101", "2026-01-32", "+026-01-01", "0000-00-00"] {
            #expect(CalendarDay(bad) == nil)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in stride(from: -5_000_000_000.0, to: 5_000_000_000, by: 86_400 * 997.3) {
            let date = Date(timeIntervalSince1970: seconds)
            let day = CalendarDay(containing: date)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            #expect([day.year, day.month, day.day] == [parts.year, parts.month, parts.day])
            #expect(day.start == calendar.startOfDay(for: date) && CalendarDay(day.description) == day)
        }
        #expect(try #require(CalendarDay("2026-12-31")).next.description == "2027-01-01")
    }

}
