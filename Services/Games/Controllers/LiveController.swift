import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceHTTP

/// `GET /v1/rounds/{id}/live?afterVersion=`: every change of the card, pushed to every device of
/// the round. A device that gives `afterVersion` first gets exactly the changes after it (no gaps,
/// no repeats), otherwise the whole card; then live ones. Devices may send `ScoreUpdate`s.
/// Only a signed-in player of the round is upgraded (`RouterMethods.live`).
struct LiveController: Controller {
    static let maxMessageSize = 1 << 16

    let rounds: Rounds
    let live: LiveRounds

    /// A player of the round, and the version their device has.
    struct Admitted: Sendable {
        let round: RoundID
        let user: UserID
        let after: Int?
    }

    func register(on router: Router<HuddleRequestContext>) {
        router.live(GamesAPI.liveRound) { request, context in
            let signedIn = try AuthenticatedContext(context: context)
            let round = try context.parameters.id(RoundID.self)
            _ = try await rounds.card(round, viewer: signedIn.userID)
            return Admitted(round: round, user: signedIn.userID, after: try request.query(GamesAPI.afterVersion))
        } serve: { admitted, inbound, _, context in
            try await serve(
                admitted.round, to: admitted.user, after: admitted.after, inbound: inbound, channel: context.requestContext.channel)
        }
    }

    private func serve(
        _ round: RoundID, to user: UserID, after: Int?, inbound: WebSocketInboundStream, channel: any Channel
    ) async throws {
        let known = try await rounds.card(round, viewer: user).version
        try await LiveSocketSession(live: live, subject: round, maxMessageSize: Self.maxMessageSize).run(
            known: known,
            opening: {
                let card = try await rounds.card(round, viewer: user)
                guard let after, after <= card.version else {
                    return ([LiveMessage(type: .card, version: card.version, card: card)], card.version)
                }
                let missed = try await rounds.changes(of: round, after: after, viewer: user)
                return (missed, max(after, missed.last?.version ?? after))
            },
            inbound: inbound, channel: channel,
            answer: { message, version in await apply(message, to: round, by: user, version: version) })
    }

    /// Applies a score sent on the socket; its change reaches every device, this one included.
    /// Returns the message that tells this device why nothing changed, if so.
    private func apply(_ message: WebSocketMessage, to round: RoundID, by user: UserID, version: Int) async -> LiveMessage? {
        guard case .text(let text) = message, let value = try? JSONTree.read(Data(text.utf8))
        else {
            let problem = Problem(
                title: "Invalid message", status: 400, detail: localized("Send a JSON score: {playerId, hole, strokes, expectedVersion?}."),
                code: "MALFORMED_MESSAGE")
            return LiveMessage(type: .error, version: version, problem: problem)
        }
        do {
            // A frame keeps the rules its schema states, as the same score sent over HTTP does.
            let update = try BodySchemas.shared.decode(ScoreUpdate.self, from: value)
            _ = try await rounds.score(update, in: round, by: user)
            return nil
        } catch GamesError.versionConflict(let card) {
            return LiveMessage(type: .error, version: card.version, card: card, problem: GamesError.versionConflict(card).problem)
        } catch let error as any ProblemError {
            return LiveMessage(type: .error, version: version, problem: error.problem)
        } catch {
            return LiveMessage(type: .error, version: version, problem: CommonError.internalError.problem)
        }
    }
}
