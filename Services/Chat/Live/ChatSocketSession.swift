import Contracts
import Foundation
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket
import ServiceKit

/// One device's chat socket: the rooms it subscribes to, each room's missed messages then its live
/// changes, and what it sends. One queue, drained by one writer, carries everything the device is
/// sent, in order; it is bounded, and a device that falls that far behind is disconnected (it
/// resumes from its last seq) rather than slowing the room's other sockets or growing without end.
struct ChatSocketSession {
    let user: UserID
    let live: LiveRooms
    let rooms: Rooms
    let messages: Messages
    let database: Database
    let blocks: BlockCache
    let bufferSize: Int
    let maxMessageSize: Int
    let logger: Logger

    private enum Outgoing: Sendable {
        case frame(ChatServerFrame)
        case change(RoomID, LiveDelivery<ChatChange>)
        /// A subscription is ready: its `subscribed` frame, what the device missed, and the changes
        /// after the version it subscribed at (the writer sends each message once).
        case opened(RoomID, lastSeq: Int, missed: [ChatMessage], since: [ChatChange])
        case closed(RoomID)
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (queue, input) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingOldest(bufferSize))
        let subscriptions = NIOLockedValueBox<[RoomID: UUID]>([:])
        let send: @Sendable (Outgoing) -> Void = { item in
            // Full: this device cannot keep up. Close it; it will resume from its seq.
            if case .dropped = input.yield(item) { input.finish() }
        }
        defer { input.finish() }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await write(queue, to: outbound, subscriptions: subscriptions) }
                group.addTask {
                    for try await message in inbound.messages(maxSize: maxMessageSize) {
                        await handle(message, subscriptions: subscriptions, send: send)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            await unsubscribeAll(subscriptions)
            throw error
        }
        await unsubscribeAll(subscriptions)
    }

    // MARK: What the device sends

    private func handle(
        _ message: WebSocketMessage, subscriptions: NIOLockedValueBox<[RoomID: UUID]>, send: @escaping @Sendable (Outgoing) -> Void
    ) async {
        guard case .text(let text) = message, let frame = try? HuddleJSON.decoder.decode(ChatClientFrame.self, from: Data(text.utf8)) else {
            send(.frame(Self.error(CommonError.malformedBody("Send a JSON frame: subscribe, unsubscribe or send.").problem)))
            return
        }
        do {
            switch frame.type {
            case .subscribe:
                try await subscribe(frame.roomId, afterSeq: frame.afterSeq, subscriptions: subscriptions, send: send)
            case .unsubscribe:
                if let id = subscriptions.withLockedValue({ $0.removeValue(forKey: frame.roomId) }) {
                    await live.unsubscribe(id, from: frame.roomId)
                }
                send(.closed(frame.roomId))
            case .send:
                let request = SendChatMessage(text: frame.text ?? "", clientMessageId: frame.clientMessageId ?? "")
                let (sent, _) = try await messages.send(request, to: frame.roomId, by: user)
                // A room this socket follows gets the message from the feed, like everyone else.
                if subscriptions.withLockedValue({ $0[frame.roomId] == nil }) {
                    send(.frame(ChatServerFrame(type: .message, roomId: frame.roomId, message: sent)))
                }
            }
        } catch let error as any ProblemError {
            var reply = Self.error(error.problem, room: frame.roomId, clientMessageId: frame.clientMessageId)
            if case ChatError.floodLimited(let seconds) = error { reply.retryAfter = seconds }
            send(.frame(reply))
        } catch {
            logger.warning("chat socket frame failed: \(error)")
            send(.frame(Self.error(CommonError.internalError.problem, room: frame.roomId, clientMessageId: frame.clientMessageId)))
        }
    }

    private func subscribe(
        _ room: RoomID, afterSeq: Int?, subscriptions: NIOLockedValueBox<[RoomID: UUID]>,
        send: @escaping @Sendable (Outgoing) -> Void
    ) async throws {
        if let afterSeq, !ChatMessageLimits.seqRange.contains(afterSeq) {
            throw CommonError.invalid("afterSeq", ChatMessageLimits.seqProblem)
        }
        guard subscriptions.withLockedValue({ $0[room] == nil }) else { return }
        let stored = try await database.read { sql in try await rooms.accessible(room, by: user, on: sql) }
        let subscriber = LiveSubscriber<ChatChange>(
            deliver: { send(.change(room, $0)) },
            end: {
                // Ended by the feed while still subscribed: the service is stopping.
                if subscriptions.withLockedValue({ $0[room] != nil }) { send(.closed(room)) }
            })
        let id = await live.subscribe(subscriber, to: room, after: stored.version)
        subscriptions.withLockedValue { $0[room] = id }
        var missed: [ChatMessage] = []
        if var after = afterSeq {
            // Everything after the device's seq, oldest first, a page at a time.
            while after < stored.lastSeq {
                let page = try await messages.history(of: room, before: nil, after: after, limit: 100, viewer: user).items
                guard let last = page.last else { break }
                missed += page.filter { $0.seq <= stored.lastSeq }
                after = last.seq
            }
        }
        let since = try await messages.changes(of: room, after: stored.version)
        send(.opened(room, lastSeq: stored.lastSeq, missed: missed, since: since))
    }

    private func unsubscribeAll(_ subscriptions: NIOLockedValueBox<[RoomID: UUID]>) async {
        let all = subscriptions.withLockedValue { all in
            defer { all = [:] }
            return all
        }
        for (room, id) in all { await live.unsubscribe(id, from: room) }
    }

    // MARK: What the device is sent

    /// The writer: the only one to write to the socket, so frames go out in queue order. It keeps,
    /// per room, the last message seq sent, and holds a room's live changes until its opening is sent.
    private func write(
        _ queue: AsyncStream<Outgoing>, to outbound: WebSocketOutboundWriter, subscriptions: NIOLockedValueBox<[RoomID: UUID]>
    ) async throws {
        var sentSeq: [RoomID: Int] = [:]
        var waiting: [RoomID: [LiveDelivery<ChatChange>]] = [:]
        func write(_ json: ByteBuffer) async throws {
            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: json)))
        }
        func write(_ frame: ChatServerFrame) async throws { try await write(ByteBuffer(bytes: try HuddleJSON.encoder.encode(frame))) }
        /// A live change goes out as the JSON every socket of the room shares (encoding it per
        /// socket cost 1,000 encodings a message at 1,000 sockets).
        func pass(_ change: ChatChange, json: ByteBuffer?, in room: RoomID) async throws {
            if let leaver = change.leaver {
                guard leaver == user else { return }
                sentSeq[room] = nil
                if let id = subscriptions.withLockedValue({ $0.removeValue(forKey: room) }) { await live.unsubscribe(id, from: room) }
                try await write(change.frame)
                return
            }
            if change.frame.type == .message, let seq = change.seq {
                guard seq > sentSeq[room] ?? Int.max else { return }
                sentSeq[room] = seq
            }
            if let sender = change.senderID, sender != user, await blocks.blocked(by: user).contains(sender) { return }
            if let json { try await write(json) } else { try await write(change.frame) }
        }
        for await item in queue {
            switch item {
            case .frame(let frame):
                try await write(frame)
            case .change(let room, let delivery):
                if sentSeq[room] != nil {
                    try await pass(delivery.message, json: delivery.json, in: room)
                } else if subscriptions.withLockedValue({ $0[room] != nil }) {
                    waiting[room, default: []].append(delivery)
                }
            case .opened(let room, let lastSeq, let missed, let since):
                try await write(ChatServerFrame(type: .subscribed, roomId: room, lastSeq: lastSeq))
                sentSeq[room] = lastSeq
                // History already leaves out the players this user blocked.
                for message in missed { try await write(ChatServerFrame(type: .message, roomId: room, message: message)) }
                for change in since { try await pass(change, json: nil, in: room) }
                for delivery in waiting.removeValue(forKey: room) ?? [] { try await pass(delivery.message, json: delivery.json, in: room) }
            case .closed(let room):
                sentSeq[room] = nil
                waiting[room] = nil
                // The feed ended while subscribed: the service is stopping, so the socket closes.
                if subscriptions.withLockedValue({ $0[room] != nil }) { return }
            }
        }
    }

    private static func error(_ problem: Problem, room: RoomID? = nil, clientMessageId: String? = nil) -> ChatServerFrame {
        ChatServerFrame(type: .error, roomId: room, code: problem.code, detail: problem.detail, clientMessageId: clientMessageId)
    }
}
