import BigInt
import Contracts

/// Exact arithmetic of accumulator tickets. Odds are whole thousandths, so the product of n odds is a
/// whole number over 1000ⁿ; it is kept whole (arbitrary precision: twenty odds of 1000.000 need 400
/// bits) and divided once, rounding down, so no rounding happens before the last step.
enum TicketMath {
    /// stake × the product of `odds`, rounded down to the minor unit, at most `cap` (the stake
    /// itself when `odds` is empty: every leg void).
    static func winnings(stake: Int, odds: [Odds], cap: Int) -> Int {
        let exact = product(odds) * BigUInt(stake) / BigUInt(Odds.scale).power(odds.count)
        return exact > BigUInt(cap) ? cap : Int(exact)
    }

    /// The product of `odds` rounded down to three decimals, at most the largest odds there are;
    /// nil for none.
    static func totalOdds(_ odds: [Odds]) -> Odds? {
        guard !odds.isEmpty else { return nil }
        let thousandths = product(odds) / BigUInt(Odds.scale).power(odds.count - 1)
        return Odds(thousandths: thousandths > BigUInt(Odds.range.upperBound) ? Odds.range.upperBound : Int(thousandths))
    }

    private static func product(_ odds: [Odds]) -> BigUInt {
        odds.reduce(BigUInt(1)) { $0 * BigUInt($1.thousandths) }
    }
}
