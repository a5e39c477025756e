import Foundation

/// Whether a wallet may be topped up back to the grant: a player who lost it all can bet again, but
/// no more often than `every`, counted from the grant or the last refill. Pure: the wallet's state and
/// the time in, a decision out.
struct WalletRefill: Equatable, Sendable {
    var grant: Int
    var every: TimeInterval

    enum Decision: Equatable, Sendable {
        /// Credit this much: the wallet then holds the grant.
        case topUp(Int)
        /// The wallet holds the grant or more already.
        case full
        /// Too soon after the last top-up; one may be asked for from this time.
        case notDue(availableAt: Date)
    }

    func decide(balance: Int, lastTopUp: Date?, at now: Date) -> Decision {
        guard balance < grant else { return .full }
        if let lastTopUp, now < lastTopUp.addingTimeInterval(every) { return .notDue(availableAt: lastTopUp.addingTimeInterval(every)) }
        return .topUp(grant - balance)
    }
}
