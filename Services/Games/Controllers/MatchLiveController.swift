import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import ServiceKit

/// `GET /v1/matches/{id}/live?afterVersion=`: every version of the match as `{version, match}`,
/// public. A device that gives `afterVersion` first gets each version after it (no gaps, no
/// repeats), otherwise the match as it is; then live ones. Messages from devices are ignored.
struct MatchLiveController {
    let matches: Matches
    let live: LiveMatches
    /// The last version of each match as JSON text, so a change is encoded once however many
    /// devices follow the match (encoding per device cost ~0.2 ms × devices per change).
    let encoded = NIOLockedValueBox<[MatchID: (version: Int, text: String)]>([:])

    func add(to router: Router<LiveRequestContext>) {
        router.ws(RouterPath(GamesAPI.liveMatch.operation.path.text)) { _, context in
            guard let id = context.parameters.get("id").flatMap(MatchID.init), (try? await matches.current(id)) != nil else {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let id = context.requestContext.parameters.get("id").flatMap(MatchID.init) else { return }
            let after = context.request.uri.queryParameters["afterVersion"].flatMap { Int(String($0)) }.map { max(0, $0) }
            do {
                try await serve(id, after: after, inbound: inbound, outbound: outbound)
            } catch {
                context.logger.debug("live match \(id) ended: \(error)")
            }
        }
    }

    private func serve(_ id: MatchID, after: Int?, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        // Subscribe before reading what the device missed: whatever commits in between comes both
        // ways, and versions already sent are skipped.
        let current = try await matches.current(id)
        let (subscription, changes) = await live.subscribe(to: id, after: current.version)
        do {
            try await stream(id, after: after, changes: changes, inbound: inbound, outbound: outbound)
        } catch {
            await live.unsubscribe(subscription, from: id)
            throw error
        }
        await live.unsubscribe(subscription, from: id)
    }

    private func stream(
        _ id: MatchID, after: Int?, changes: LiveMatches.Subscription, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        let (outgoing, send) = AsyncStream<MatchChange>.makeStream()
        let sent = NIOLockedValueBox(0)
        let now = try await matches.current(id)
        if let after, after <= now.version {
            let missed = try await matches.changes(of: id, after: after)
            for change in missed { send.yield(change) }
            sent.withLockedValue { $0 = missed.last?.version ?? after }
        } else {
            send.yield(MatchChange(version: now.version, match: now))
            sent.withLockedValue { $0 = now.version }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await change in outgoing { try await outbound.write(.text(try text(of: change))) }
            }
            group.addTask {
                for await change in changes {
                    let isNew = sent.withLockedValue { last in
                        guard change.version > last else { return false }
                        last = change.version
                        return true
                    }
                    if isNew { send.yield(change) }
                }
            }
            group.addTask {
                // Nothing is taken from devices; reading notices the hang-up.
                for try await _ in inbound.messages(maxSize: LiveController.maxMessageSize) {}
            }
            try await group.next()
            group.cancelAll()
        }
        send.finish()
    }

    private func text(of change: MatchChange) throws -> String {
        if let cached = encoded.withLockedValue({ $0[change.match.id] }), cached.version == change.version { return cached.text }
        let text = String(decoding: try HuddleJSON.encoder.encode(change), as: UTF8.self)
        encoded.withLockedValue { cache in
            if (cache[change.match.id]?.version ?? -1) < change.version { cache[change.match.id] = (change.version, text) }
        }
        return text
    }
}
