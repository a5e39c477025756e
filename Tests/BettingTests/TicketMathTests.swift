import Contracts
import Foundation
import Testing

@testable import BettingService

@Suite("Odds, ticket arithmetic and settlement rules")
struct TicketMathTests {
    private func odds(_ text: String) -> Odds { Odds(text)! }

    @Test("Odds read one to three decimals exactly and always write three; anything else is refused")
    func oddsText() {
        #expect(Odds("1.77")?.thousandths == 1770 && Odds("1.770")?.description == "1.770")
        #expect(Odds("2")?.description == "2.000" && Odds("1.001")?.thousandths == 1001 && Odds("12.5")?.description == "12.500")
        for bad in Self.notOdds { #expect(Odds(bad) == nil, "\(bad)") }
    }

    static let notOdds = [
        "1", "1.000", "1.00", "0.5", "01.5", "1.7701", "1.", ".5", "-1.5", "1,50", "1e3", "", " 1.5", "abc", "1234567890123",
    ]

    @Test("The document's pattern for odds accepts exactly what the server reads")
    func oddsPattern() throws {
        let pattern = try #require(Odds.schema.pattern)
        let regex = try NSRegularExpression(pattern: pattern)
        let good = ["1.001", "1.01", "1.010", "1.1", "1.100", "1.999", "2", "2.5", "10", "10.000", "999999999999.999", "1234567.0"]
        for text in good + Self.notOdds {
            let matches = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(matches == (Odds(text) != nil), "\(text): pattern \(matches), parser \(Odds(text) != nil)")
        }
    }

    @Test("Winnings are the stake times the exact product of the odds, rounded down once, at the end")
    func winnings() {
        // 1000 × 1.5 × 1.5 × 1.5 = 3375 exactly; 333 × 1.333 = 443.889 → 443.
        #expect(TicketMath.winnings(stake: 1000, odds: [odds("1.5"), odds("1.5"), odds("1.5")], cap: .max) == 3375)
        #expect(TicketMath.winnings(stake: 333, odds: [odds("1.333")], cap: .max) == 443)
        // The exact product of twenty 1.999s is 1,038,139.89…, so a stake of 100 pays 103,813,989
        // (Python's fractions agree); it has 60 decimals before the one division.
        let twenty = Array(repeating: odds("1.999"), count: 20)
        #expect(TicketMath.winnings(stake: 100, odds: twenty, cap: .max) == 103_813_989)
        // Twenty odds of 999,999.999 need hundreds of bits; the cap bounds the answer.
        #expect(TicketMath.winnings(stake: 100_000, odds: Array(repeating: odds("999999.999"), count: 20), cap: 100_000_000) == 100_000_000)
        #expect(TicketMath.winnings(stake: Int(Int32.max), odds: [odds("1.001")], cap: .max) == 2_149_631_130)
        #expect(TicketMath.winnings(stake: 500, odds: [], cap: .max) == 500)
    }

    @Test("Total odds are the product rounded down to three decimals")
    func totalOdds() {
        #expect(TicketMath.totalOdds([odds("1.5"), odds("2.25")])?.description == "3.375")
        #expect(TicketMath.totalOdds([odds("1.333"), odds("1.333")])?.description == "1.776")  // 1.776889
        #expect(TicketMath.totalOdds([]) == nil)
        #expect(TicketMath.totalOdds(Array(repeating: odds("1000"), count: 5))?.thousandths == Odds.range.upperBound)
    }

    @Test("A leg is decided by the score after regular time; called-off matches are void; postponed ones wait")
    func legs() {
        let oneNil = Match.Score(home: 1, away: 0), level = Match.Score(home: 2, away: 2)
        #expect(Settlement.leg(.home, status: .fullTime, regularTime: oneNil) == .won)
        #expect(Settlement.leg(.draw, status: .fullTime, regularTime: oneNil) == .lost)
        #expect(Settlement.leg(.away, status: .fullTime, regularTime: oneNil) == .lost)
        // Level after 90 minutes, won after extra time or on penalties: the 1X2 market says draw.
        #expect(Settlement.leg(.draw, status: .afterExtraTime, regularTime: level) == .won)
        #expect(Settlement.leg(.home, status: .afterPenalties, regularTime: level) == .lost)
        for called in [MatchStatus.cancelled, .abandoned, .awarded, .walkover] {
            #expect(Settlement.leg(.home, status: called, regularTime: nil) == .void)
        }
        for undecided in [MatchStatus.notStarted, .firstHalf, .halftime, .extraTime, .penalties, .postponed, .suspended] {
            #expect(Settlement.leg(.home, status: undecided, regularTime: oneNil) == .open)
        }
        #expect(Settlement.leg(.home, status: .fullTime, regularTime: nil) == .open)
    }

    @Test("A fixture reported ended is never reported back to not started or in play; a postponed one is")
    func endedStaysEnded() {
        for ended in [MatchStatus.fullTime, .afterExtraTime, .afterPenalties, .cancelled, .abandoned, .awarded, .walkover] {
            for back in [MatchStatus.notStarted, .toBeDefined, .firstHalf, .halftime, .postponed] {
                #expect(!Market.accepts(back, after: ended), "\(ended) → \(back)")
            }
            #expect(Market.accepts(.fullTime, after: ended))
        }
        for open in [MatchStatus.notStarted, .firstHalf, .halftime, .postponed, .suspended] {
            for next in [MatchStatus.notStarted, .firstHalf, .fullTime, .cancelled] {
                #expect(Market.accepts(next, after: open), "\(open) → \(next)")
            }
        }
    }

    @Test("A ticket is lost at its first lost leg, void when every leg is, won otherwise with void legs at 1.000")
    func tickets() {
        let a = odds("2"), b = odds("1.5")
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .won), (b, .open)], cap: .max) == nil)
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .lost), (b, .open)], cap: .max)! == (.lost, 0))
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .won), (b, .won)], cap: .max)! == (.won, 3000))
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .won), (b, .void)], cap: .max)! == (.won, 2000))
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .void), (b, .void)], cap: .max)! == (.void, 1000))
        #expect(Settlement.ticket(stake: 1000, legs: [(a, .won), (b, .won)], cap: 2500)! == (.won, 2500))
    }

    @Test("A market is open until kickoff and while the match has not started")
    func market() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(Market.isOpen(status: .notStarted, kickoff: now.addingTimeInterval(60), now: now))
        #expect(!Market.isOpen(status: .notStarted, kickoff: now, now: now))
        #expect(!Market.isOpen(status: .firstHalf, kickoff: now.addingTimeInterval(60), now: now))
        #expect(!Market.isOpen(status: .postponed, kickoff: now.addingTimeInterval(60), now: now))
    }
}
