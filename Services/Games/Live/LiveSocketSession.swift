import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import ServiceKit

/// One device on a live socket (a round's card, a match): first what it missed or the subject as it
/// stands, then every change from the feed not yet sent, each version once and in order, while
/// `answer` handles what the device sends. Ends when the device hangs up or the service stops.
struct LiveSocketSession<Key: Hashable & Sendable & CustomStringConvertible, Message: VersionedMessage> {
    typealias Opening = (messages: [Message], sentThrough: Int)

    let live: LiveFeed<Key, Message>
    let subject: Key
    let maxMessageSize: Int

    /// `known` is the subject's version now; `opening` reads what to send first (called after
    /// subscribing, so whatever commits in between comes both ways and is sent once).
    func run(
        known: Int, opening: () async throws -> Opening, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        answer: @escaping @Sendable (WebSocketMessage, _ lastSent: Int) async -> Message?
    ) async throws {
        let (subscription, changes) = await live.subscribe(to: subject, after: known)
        do {
            try await stream(opening(), changes: changes, inbound: inbound, outbound: outbound, answer: answer)
        } catch {
            await live.unsubscribe(subscription, from: subject)
            throw error
        }
        await live.unsubscribe(subscription, from: subject)
    }

    private func stream(
        _ opening: Opening, changes: LiveFeed<Key, Message>.Subscription, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter, answer: @escaping @Sendable (WebSocketMessage, Int) async -> Message?
    ) async throws {
        let (outgoing, send) = AsyncStream<String>.makeStream()
        func encoded(_ message: Message) -> String? { try? String(decoding: HuddleJSON.encoder.encode(message), as: UTF8.self) }
        for message in opening.messages { if let text = encoded(message) { send.yield(text) } }
        let sent = NIOLockedValueBox(opening.sentThrough)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outgoing { try await outbound.write(.text(text)) }
            }
            group.addTask {
                for await change in changes {
                    let isNew = sent.withLockedValue { last in
                        guard change.message.version > last else { return false }
                        last = change.message.version
                        return true
                    }
                    if isNew { send.yield(change.text) }
                }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: maxMessageSize) {
                    if let reply = await answer(message, sent.withLockedValue { $0 }), let text = encoded(reply) { send.yield(text) }
                }
            }
            // The device hung up, or the service is shutting down.
            try await group.next()
            group.cancelAll()
        }
        send.finish()
    }
}

extension Request {
    /// `?afterVersion=` of a live socket: absent, or a version from 0 to 2³¹−1 as the description
    /// states (422 otherwise, on the plain HTTP path; a socket is not opened for it).
    func afterVersion() throws -> Int? {
        guard let version = try query("afterVersion", as: Int.self) else { return nil }
        guard (0...Int(Int32.max)).contains(version) else {
            throw CommonError.invalid("afterVersion", "must be a version from 0 to 2147483647")
        }
        return version
    }

    /// Whether `afterVersion` is absent or valid: a socket is opened only then.
    var hasValidAfterVersion: Bool {
        do {
            _ = try afterVersion()
            return true
        } catch {
            return false
        }
    }
}
