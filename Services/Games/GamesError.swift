import Contracts
import Foundation
import Hummingbird
import ServiceKit

/// Problems only games raises; shared ones (validation, 401, 403, 404, 503) come from `CommonError`.
enum GamesError: ProblemError {
    case cancelled
    case alreadyStarted
    case roundFinished
    /// A score sent with an `expectedVersion` the card has moved past.
    case versionConflict(Scorecard)

    var problem: Problem {
        switch self {
        case .cancelled:
            Problem(title: "Game cancelled", status: 409, detail: "This game was cancelled.", code: "GAME_CANCELLED")
        case .alreadyStarted:
            Problem(
                title: "Game started", status: 409, detail: "This game has already started; its roster is closed.",
                code: "GAME_STARTED")
        case .roundFinished:
            Problem(title: "Round finished", status: 409, detail: "This round is finished; its card is read-only.", code: "ROUND_FINISHED")
        case .versionConflict(let card):
            Problem(
                title: "Card changed", status: 409,
                detail: "The card is at version \(card.version); here it is as it stands now.", code: "VERSION_CONFLICT")
        }
    }

    /// A version conflict carries the current card beside the problem.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        guard case .versionConflict(let card) = self else { return try ProblemResponse.make(problem) }
        return Response(
            status: .conflict, headers: [.contentType: Problem.mediaType],
            body: .init(byteBuffer: ByteBuffer(bytes: try HuddleJSON.encoder.encode(ScoreConflict(problem: problem, scorecard: card)))))
    }
}
