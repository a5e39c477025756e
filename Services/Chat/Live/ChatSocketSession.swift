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
    /// Cuts the connection after the drain time unless it ended by then (see `ChatSettings.socketDrain`).
    let cutOff: @Sendable () -> Void

    private enum Outgoing: Sendable {
        case frame(ChatServerFrame)
        case change(RoomID, LiveDelivery<ChatChange>)
        /// A subscription is ready: its `subscribed` frame, what the device missed, and the changes
        /// after the version it subscribed at (the writer sends each message once).
        case opened(RoomID, lastSeq: Int, missed: [ChatMessage], since: [ChatChange])
        case closed(RoomID)

        var carriesChanges: Bool {
            switch self {
            case .change, .opened: true
            case .frame, .closed: false
            }
        }
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (queue, input) = AsyncStream<Outgoing>.makeStream(bufferingPolicy: .bufferingOldest(bufferSize))
        let subscriptions = NIOLockedValueBox<[RoomID: UUID]>([:])
        let send: @Sendable (Outgoing) -> Void = { item in
            // Full: this device cannot keep up. Close it; it will resume from its seq. The writer
            // sends what is queued and closes the socket, unless the device stopped reading, when
            // the writer waits for room that never comes: then the connection is cut.
            if case .dropped = input.yield(item) {
                input.finish()
                cutOff()
            }
        }
        defer { input.finish() }
        do {
            // The writer runs in this task and the reader in a child: a task less per socket.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The device closed: the writer sends what is queued and ends.
                    defer { input.finish() }
                    for try await message in inbound.messages(maxSize: maxMessageSize) {
                        // In a child task: a subscribe's reads would grow this task, which lives as
                        // long as the socket, for good (see `write`).
                        await withTaskGroup(of: Void.self) { frame in
                            frame.addTask { await handle(message, subscriptions: subscriptions, send: send) }
                        }
                    }
                }
                try await write(queue, to: outbound, subscriptions: subscriptions)
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

    /// What the writer keeps between frames: per room, the last message seq sent, and the live
    /// changes that came before the room's opening was sent.
    private struct WriterState {
        var sentSeq: [RoomID: Int] = [:]
        var waiting: [RoomID: [LiveDelivery<ChatChange>]] = [:]
    }

    /// The writer: the only one to write to the socket, so frames go out in queue order. It lives as
    /// long as the socket, and a task keeps all the memory its deepest await ever took until it ends
    /// (Swift's task allocator frees its slabs only then), so what it does between writes is
    /// synchronous (`frames(for:)`) and a block list not in the cache is read in a child task. With
    /// the JSON, the reads and the writes all in this task, an idle subscribed socket held 60 KB.
    private func write(
        _ queue: AsyncStream<Outgoing>, to outbound: WebSocketOutboundWriter, subscriptions: NIOLockedValueBox<[RoomID: UUID]>
    ) async throws {
        var state = WriterState()
        for await item in queue {
            // Only changes others made are filtered by blocks.
            let blocked = item.carriesChanges ? await blockedByUser() : []
            let (buffers, left) = try frames(for: item, state: &state, blocked: blocked, subscriptions: subscriptions)
            for room in left {
                if let id = subscriptions.withLockedValue({ $0.removeValue(forKey: room) }) { await live.unsubscribe(id, from: room) }
            }
            for buffer in buffers { try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: buffer))) }
            // The feed ended while subscribed: the service is stopping, so the socket closes.
            if case .closed(let room) = item, subscriptions.withLockedValue({ $0[room] != nil }) { return }
        }
    }

    /// Whom this user blocked: from the cache, or read in a child task (see `write`).
    private func blockedByUser() async -> Set<UserID> {
        if let cached = blocks.cached(by: user) { return cached }
        return await withTaskGroup(of: Set<UserID>.self) { group in
            group.addTask { await blocks.blocked(by: user) }
            return await group.next() ?? []
        }
    }

    /// The frames `item` sends, in order, and the rooms this user left (to unsubscribe from). Keeps,
    /// per room, the last seq sent, and holds a room's live changes until its opening is sent.
    private func frames(
        for item: Outgoing, state: inout WriterState, blocked: Set<UserID>, subscriptions: NIOLockedValueBox<[RoomID: UUID]>
    ) throws -> (frames: [ByteBuffer], left: [RoomID]) {
        var frames: [ByteBuffer] = []
        var left: [RoomID] = []
        func json(_ frame: ChatServerFrame) throws -> ByteBuffer { ByteBuffer(bytes: try HuddleJSON.encoder.encode(frame)) }
        /// A live change goes out as the JSON every socket of the room shares (encoding it per
        /// socket cost 1,000 encodings a message at 1,000 sockets).
        func pass(_ change: ChatChange, shared: ByteBuffer?, in room: RoomID) throws {
            if let leaver = change.leaver {
                guard leaver == user else { return }
                state.sentSeq[room] = nil
                left.append(room)
                frames.append(try json(change.frame))
                return
            }
            if change.frame.type == .message, let seq = change.seq {
                guard seq > state.sentSeq[room] ?? Int.max else { return }
                state.sentSeq[room] = seq
            }
            if let sender = change.senderID, sender != user, blocked.contains(sender) { return }
            frames.append(try shared ?? json(change.frame))
        }
        switch item {
        case .frame(let frame):
            frames.append(try json(frame))
        case .change(let room, let delivery):
            if state.sentSeq[room] != nil {
                try pass(delivery.message, shared: delivery.json, in: room)
            } else if subscriptions.withLockedValue({ $0[room] != nil }) {
                state.waiting[room, default: []].append(delivery)
            }
        case .opened(let room, let lastSeq, let missed, let since):
            frames.append(try json(ChatServerFrame(type: .subscribed, roomId: room, lastSeq: lastSeq)))
            state.sentSeq[room] = lastSeq
            // History already leaves out the players this user blocked.
            for message in missed { frames.append(try json(ChatServerFrame(type: .message, roomId: room, message: message))) }
            for change in since { try pass(change, shared: nil, in: room) }
            for delivery in state.waiting.removeValue(forKey: room) ?? [] { try pass(delivery.message, shared: delivery.json, in: room) }
        case .closed(let room):
            state.sentSeq[room] = nil
            state.waiting[room] = nil
        }
        return (frames, left)
    }

    private static func error(_ problem: Problem, room: RoomID? = nil, clientMessageId: String? = nil) -> ChatServerFrame {
        ChatServerFrame(type: .error, roomId: room, code: problem.code, detail: problem.detail, clientMessageId: clientMessageId)
    }
}
