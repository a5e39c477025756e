import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// Problems only games raises; shared ones (validation, 401, 403, 404, 503) come from `CommonError`.
enum GamesError: ProblemError {
    case cancelled
    case alreadyStarted
    case roundFinished
    /// An answer from a push whose token is not notify's, is for another game, or outlived kickoff.
    case invalidRSVPToken
    /// A score sent with an `expectedVersion` the card has moved past.
    case versionConflict(Scorecard)

    var problem: Problem {
        switch self {
        case .cancelled:
            Problem(
                .gameCancelled, title: "Game cancelled", detail: localized("This game was cancelled."))
        case .alreadyStarted:
            Problem(
                .gameStarted,
                title: "Game started", detail: localized("This game has already started; its roster is closed."))
        case .invalidRSVPToken:
            Problem(
                .invalidRSVPToken, title: "Invalid answer token",
                detail: localized("This answer's token is not valid for this game any more; answer in the app."))
        case .roundFinished:
            Problem(
                .roundFinished, title: "Round finished", detail: localized("This round is finished; its card is read-only."))
        case .versionConflict(let card):
            Problem(
                .versionConflict,
                title: "Card changed", detail: localized("The card is at version \(card.version); here it is as it stands now."))
        }
    }

    /// A version conflict carries the current card beside the problem.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        guard case .versionConflict(let card) = self else { return try ProblemResponse.make(problem) }
        return Response(
            status: .conflict, headers: [.contentType: Problem.mediaType],
            body: .init(
                byteBuffer: ByteBuffer(
                    bytes: try HuddleJSON.encoder.encode(ScoreConflict(problem: ProblemResponse.traced(problem), scorecard: card)))))
    }
}
