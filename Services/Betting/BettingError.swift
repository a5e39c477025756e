import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// Problems only betting raises; shared ones (validation, 401, 404) come from `CommonError`.
enum BettingError: ProblemError {
    case oddsChanged([OddsChanged.Change])
    case fixtureStarted(MatchID)
    case insufficientFunds(balance: Int)
    case duplicateSelection(MatchID)
    case stakeOutOfRange(ClosedRange<Int>)
    case tooManySelections(max: Int)
    /// A refill too soon (`availableAt`: when one may be asked for), or for a wallet holding the grant (nil).
    case refillNotDue(availableAt: Date?)

    var problem: Problem {
        switch self {
        case .oddsChanged(let changes):
            Problem(
                .oddsChanged, title: "Odds changed",
                detail: localized("The odds of \(changes.count) selection(s) are not the ones sent; the current ones are in changes."))
        case .fixtureStarted(let id):
            Problem(
                .fixtureStarted, title: "Fixture started", detail: localized("The market of fixture \(id) is closed: it has kicked off."))
        case .insufficientFunds(let balance):
            Problem(
                .insufficientFunds, title: "Insufficient funds", detail: localized("The stake is more than the wallet holds (\(balance))."))
        case .duplicateSelection(let id):
            Problem(
                .duplicateSelection, title: "Duplicate selection",
                detail: localized("Fixture \(id) is picked more than once; pick it once."))
        case .stakeOutOfRange(let range):
            Problem(
                .stakeOutOfRange, title: "Stake out of range",
                detail: localized("The stake must be from \(range.lowerBound) to \(range.upperBound) minor units."))
        case .tooManySelections(let max):
            Problem(.tooManySelections, title: "Too many selections", detail: localized("A ticket takes at most \(max) selections."))
        case .refillNotDue(let availableAt?):
            Problem(
                .refillNotDue, title: "Refill not due",
                detail: localized("The wallet was topped up less than the refill interval ago; availableAt says when it may be again."),
                availableAt: availableAt)
        case .refillNotDue(nil):
            Problem(.refillNotDue, title: "Refill not due", detail: localized("The wallet holds the grant already."))
        }
    }

    /// ODDS_CHANGED carries the current odds beside the problem.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        guard case .oddsChanged(let changes) = self else { return try ProblemResponse.make(problem) }
        return Response(
            status: .conflict, headers: [.contentType: Problem.mediaType],
            body: .init(
                byteBuffer: ByteBuffer(
                    bytes: try HuddleJSON.encoder.encode(OddsChanged(problem: ProblemResponse.traced(problem), changes: changes)))))
    }
}
