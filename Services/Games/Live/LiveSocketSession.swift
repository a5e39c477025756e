import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import ServiceHTTP
import Tracing

/// One device on a live socket (a round's card, a match): first what it missed or the subject as it
/// stands, then every change from the feed not yet sent, each version once and in order, while
/// `answer` handles what the device sends. Ends when the device hangs up or the service stops.
/// What the device is sent goes through its `LiveOutbox`, straight to the connection; the socket's
/// own task only reads.
struct LiveSocketSession<Key: Hashable & Sendable & CustomStringConvertible, Message: VersionedMessage> {
    typealias Opening = (messages: [Message], sentThrough: Int)

    /// Writes a device may leave unwritten before it is disconnected: a match changes about once a
    /// second, so this is a device that stopped reading minutes ago.
    static var unwrittenLimit: Int { 256 }
    /// How long a stopped device has to take its close before its connection is reset, as chat's
    /// default (`chat.socket.drain.ms`).
    static var drain: TimeAmount { .seconds(10) }

    let live: LiveFeed<Key, Message>
    let subject: Key
    let maxMessageSize: Int

    /// `known` is the subject's version now; `opening` reads what to send first (called after
    /// subscribing, so whatever commits in between comes both ways and is sent once).
    func run(
        known: Int, opening: () async throws -> Opening, inbound: WebSocketInboundStream, channel: any Channel,
        answer: @escaping @Sendable (WebSocketMessage, _ lastSent: Int) async -> Message?
    ) async throws {
        let outbox = LiveOutbox<Message>(
            channel: channel, sentThrough: known, limit: Self.unwrittenLimit, cutOff: LiveSockets.cutOff(channel, after: Self.drain))
        let subscriber = LiveSubscriber(deliver: { outbox.deliver($0) }, end: { outbox.end() })
        let subscription = await live.subscribe(subscriber, to: subject, after: known)
        do {
            let (messages, sentThrough) = try await opening()
            outbox.open(messages, sentThrough: sentThrough)
            for try await message in inbound.messages(maxSize: maxMessageSize) {
                // Each frame a device sends is a span of its socket's connect.
                let reply = await withSpan("receive frame", ofKind: .consumer) { span in
                    span.attributes["huddle.module"] = ServiceModule.games.rawValue
                    return await answer(message, outbox.lastSent)
                }
                if let reply { outbox.reply(reply) }
            }
        } catch {
            await live.unsubscribe(subscription, from: subject)
            throw error
        }
        // The device hung up, or the service is shutting down.
        await live.unsubscribe(subscription, from: subject)
    }
}
