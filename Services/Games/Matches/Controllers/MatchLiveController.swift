import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceHTTP

/// `GET /v1/matches/{id}/live?afterVersion=`: every version of the match as `{version, match}`,
/// public. A device that gives `afterVersion` first gets each version after it (no gaps, no
/// repeats), otherwise the match as it is; then live ones. Messages from devices are ignored.
struct MatchLiveController: Controller {
    let matches: Matches
    let live: LiveMatches

    func register(on router: Router<HuddleRequestContext>) {
        router.live(GamesAPI.liveMatch) { request, context in
            let id = try context.parameters.id(MatchID.self)
            _ = try await matches.current(id)
            return (id: id, after: try request.query(GamesAPI.afterVersion))
        } serve: { admitted, inbound, _, context in
            try await serve(admitted.id, after: admitted.after, inbound: inbound, channel: context.requestContext.channel)
        }
    }

    private func serve(_ id: MatchID, after: Int?, inbound: WebSocketInboundStream, channel: any Channel) async throws {
        let known = try await matches.current(id).version
        try await LiveSocketSession(live: live, subject: id, maxMessageSize: LiveController.maxMessageSize).run(
            known: known,
            opening: {
                let match = try await matches.current(id)
                guard let after, after <= match.version else { return ([MatchChange(version: match.version, match: match)], match.version) }
                let missed = try await matches.changes(of: id, after: after)
                return (missed, missed.last?.version ?? after)
            },
            inbound: inbound, channel: channel,
            // Nothing is taken from devices; reading only notices the hang-up.
            answer: { _, _ in nil })
    }
}
