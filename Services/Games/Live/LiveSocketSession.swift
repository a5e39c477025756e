import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import ServiceKit
import Tracing

/// One device on a live socket (a round's card, a match): first what it missed or the subject as it
/// stands, then every change from the feed not yet sent, each version once and in order, while
/// `answer` handles what the device sends. Ends when the device hangs up or the service stops.
///
/// The feed and the answers go into one queue that one writer drains: a change reaches the socket
/// with a single hop (with a second hop per device, p99 over 1,000 devices was ~5 ms higher).
struct LiveSocketSession<Key: Hashable & Sendable & CustomStringConvertible, Message: VersionedMessage> {
    typealias Opening = (messages: [Message], sentThrough: Int)

    private enum Outgoing: Sendable {
        case change(LiveDelivery<Message>)
        case reply(ByteBuffer)
    }

    let live: LiveFeed<Key, Message>
    let subject: Key
    let maxMessageSize: Int

    /// `known` is the subject's version now; `opening` reads what to send first (called after
    /// subscribing, so whatever commits in between comes both ways and is sent once).
    func run(
        known: Int, opening: () async throws -> Opening, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        answer: @escaping @Sendable (WebSocketMessage, _ lastSent: Int) async -> Message?
    ) async throws {
        let (queue, input) = AsyncStream<Outgoing>.makeStream()
        let subscriber = LiveSubscriber(deliver: { input.yield(.change($0)) }, end: { input.finish() })
        let subscription = await live.subscribe(subscriber, to: subject, after: known)
        do {
            try await stream(opening(), queue: queue, input: input, inbound: inbound, outbound: outbound, answer: answer)
        } catch {
            await live.unsubscribe(subscription, from: subject)
            throw error
        }
        await live.unsubscribe(subscription, from: subject)
    }

    private func stream(
        _ opening: Opening, queue: AsyncStream<Outgoing>, input: AsyncStream<Outgoing>.Continuation, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter, answer: @escaping @Sendable (WebSocketMessage, Int) async -> Message?
    ) async throws {
        func json(_ message: Message) -> ByteBuffer? { (try? HuddleJSON.encoder.encode(message)).map { ByteBuffer(bytes: $0) } }
        func write(_ json: ByteBuffer) async throws {
            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: json)))
        }
        let sent = NIOLockedValueBox(opening.sentThrough)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for message in opening.messages { if let json = json(message) { try await write(json) } }
                for await item in queue {
                    switch item {
                    case .change(let change):
                        let isNew = sent.withLockedValue { last in
                            guard change.version > last else { return false }
                            last = change.version
                            return true
                        }
                        if isNew { try await write(change.json) }
                    case .reply(let json):
                        try await write(json)
                    }
                }
            }
            group.addTask {
                for try await message in inbound.messages(maxSize: maxMessageSize) {
                    // Each frame a device sends is a span of its socket's connect.
                    let reply = await withSpan("receive frame", ofKind: .consumer) { span in
                        span.attributes["huddle.module"] = ServiceModule.games.rawValue
                        return await answer(message, sent.withLockedValue { $0 })
                    }
                    if let reply, let json = json(reply) { input.yield(.reply(json)) }
                }
            }
            // The device hung up, or the service is shutting down.
            try await group.next()
            group.cancelAll()
        }
        input.finish()
    }
}
