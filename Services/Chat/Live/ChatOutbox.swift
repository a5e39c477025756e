import Contracts
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ServiceHTTP

/// Everything one device's chat socket is sent, in order: its rooms' live changes, what it missed
/// when it subscribed, the answers to its frames. Whoever has something for the device (the room's
/// feed, the socket's reader) posts it here, and it is written to the socket's connection at once,
/// under one lock, so frames go out in the order they were posted.
///
/// Nothing waits per socket: no queue, no writer task. A task keeps all the memory its deepest await
/// ever took until it ends (Swift's task allocator frees its slabs only then), and a writer task
/// with its queue, beside the reader task, held 10–12 of the 42.7 KB of an idle subscribed socket
/// (heaptrack, `huddle-bench chat`). What the socket does not manage to write is bounded instead
/// (`limit` writes, each an item's frames: a live message, an answer, or a subscription's catch-up,
/// however long): a device that cannot keep up is disconnected, and resumes from its seq.
final class ChatOutbox: Sendable {
    enum Item: Sendable {
        case frame(ChatServerFrame)
        case change(RoomID, LiveDelivery<ChatChange>)
        /// A subscription is ready: its `subscribed` frame, what the device missed, and the changes
        /// after the version it subscribed at (each message is sent once).
        case opened(RoomID, lastSeq: Int, missed: [ChatMessage], since: [ChatChange])
        case closed(RoomID)

        /// Changes others made, which this user's blocks filter.
        var carriesChanges: Bool {
            switch self {
            case .change, .opened: true
            case .frame, .closed: false
            }
        }
    }

    private struct State {
        /// The rooms subscribed to, by the id of their feed subscription.
        var subscriptions: [RoomID: UUID] = [:]
        /// Per room, the last message seq sent, and the live changes that came before its opening.
        var sentSeq: [RoomID: Int] = [:]
        var waiting: [RoomID: [LiveDelivery<ChatChange>]] = [:]
        /// Items waiting, in order, for this user's block list to be read; nil while none does.
        var awaitingBlocks: [Item]?
        /// Items whose frames were handed to the connection and not yet written to it.
        var writes: LiveWrites
        /// Nothing more is sent: the device fell behind or the socket is closing.
        var ended = false
    }

    let user: UserID
    private let channel: any Channel
    private let live: LiveRooms
    private let blocks: BlockCache
    private let cutOff: @Sendable () -> Void
    private let state: NIOLockedValueBox<State>

    /// `cutOff` resets the connection after the drain time unless it ended by then (see `ChatSettings.socketDrain`).
    init(user: UserID, channel: any Channel, live: LiveRooms, blocks: BlockCache, limit: Int, cutOff: @escaping @Sendable () -> Void) {
        self.user = user
        self.channel = channel
        self.live = live
        self.blocks = blocks
        self.cutOff = cutOff
        self.state = NIOLockedValueBox(State(writes: LiveWrites(limit: limit)))
    }

    // MARK: Subscriptions

    func subscription(to room: RoomID) -> UUID? { state.withLockedValue { $0.subscriptions[room] } }

    func subscribed(to room: RoomID, as id: UUID) { state.withLockedValue { $0.subscriptions[room] = id } }

    func unsubscribe(from room: RoomID) -> UUID? { state.withLockedValue { $0.subscriptions.removeValue(forKey: room) } }

    /// The socket is gone: sends nothing more, and answers the subscriptions to end.
    func close() -> [RoomID: UUID] {
        state.withLockedValue { state in
            state.ended = true
            defer { state.subscriptions = [:] }
            return state.subscriptions
        }
    }

    // MARK: Sending

    func post(_ item: Item) {
        let readBlocks = state.withLockedValue { state -> Bool in
            guard !state.ended else { return false }
            if state.awaitingBlocks != nil {
                state.awaitingBlocks!.append(item)
                return false
            }
            guard item.carriesChanges else {
                send(item, blocked: [], state: &state)
                return false
            }
            guard let blocked = blocks.cached(by: user) else {
                state.awaitingBlocks = [item]
                return true
            }
            send(item, blocked: blocked, state: &state)
            return false
        }
        // Read once for everything posted meanwhile; rare: the cache is shared by the user's sockets.
        if readBlocks { Task { self.resume(blocked: await blocks.blocked(by: user)) } }
    }

    private func resume(blocked: Set<UserID>) {
        state.withLockedValue { state in
            let items = state.awaitingBlocks ?? []
            state.awaitingBlocks = nil
            for item in items where !state.ended { send(item, blocked: item.carriesChanges ? blocked : [], state: &state) }
        }
    }

    private func send(_ item: Item, blocked: Set<UserID>, state: inout State) {
        let (frames, left) = Self.frames(for: item, to: user, state: &state, blocked: blocked)
        for room in left {
            guard let id = state.subscriptions.removeValue(forKey: room) else { continue }
            Task { await live.unsubscribe(id, from: room) }
        }
        if !frames.isEmpty, !state.writes.hand(frames, to: channel, written: { self.state.withLockedValue { $0.writes.finished() } }) {
            // This device cannot keep up: it will resume from its seq. A device that still reads
            // gets the close; one that stopped is reset after the drain time.
            end(&state)
            cutOff()
            return
        }
        // The feed ended while subscribed: the service is stopping, so the socket closes.
        if case .closed(let room) = item, state.subscriptions[room] != nil { end(&state) }
    }

    /// Sends nothing more and ends the socket's reading, which ends the socket: swift-websocket then
    /// closes it politely.
    private func end(_ state: inout State) {
        state.ended = true
        state.awaitingBlocks = nil
        channel.close(mode: .input, promise: nil)
    }

    // MARK: What an item sends

    /// The frames `item` sends, in order, and the rooms this user left (to unsubscribe from). Keeps,
    /// per room, the last seq sent, and holds a room's live changes until its opening is sent.
    private static func frames(
        for item: Item, to user: UserID, state: inout State, blocked: Set<UserID>
    ) -> (frames: [LiveText], left: [RoomID]) {
        var frames: [LiveText] = []
        var left: [RoomID] = []
        /// A live change goes out as the JSON every socket of the room shares (encoding it per
        /// socket cost 1,000 encodings a message at 1,000 sockets).
        func add(_ frame: ChatServerFrame) {
            // Server frames are plain Codable values: encoding one does not fail.
            if let json = try? HuddleJSON.encoder.encode(frame) { frames.append(LiveText(ByteBuffer(bytes: json))) }
        }
        func pass(_ change: ChatChange, shared: LiveText?, in room: RoomID) {
            if let leaver = change.leaver {
                guard leaver == user else { return }
                state.sentSeq[room] = nil
                left.append(room)
                add(change.frame)
                return
            }
            if change.frame.type == .message, let seq = change.seq {
                guard seq > state.sentSeq[room] ?? Int.max else { return }
                state.sentSeq[room] = seq
            }
            if let sender = change.senderID, sender != user, blocked.contains(sender) { return }
            if let shared { frames.append(shared) } else { add(change.frame) }
        }
        switch item {
        case .frame(let frame):
            add(frame)
        case .change(let room, let delivery):
            if state.sentSeq[room] != nil {
                pass(delivery.message, shared: delivery.text, in: room)
            } else if state.subscriptions[room] != nil {
                state.waiting[room, default: []].append(delivery)
            }
        case .opened(let room, let lastSeq, let missed, let since):
            add(ChatServerFrame(type: .subscribed, roomId: room, lastSeq: lastSeq))
            state.sentSeq[room] = lastSeq
            // History already leaves out the players this user blocked.
            for message in missed { add(ChatServerFrame(type: .message, roomId: room, message: message)) }
            for change in since { pass(change, shared: nil, in: room) }
            for delivery in state.waiting.removeValue(forKey: room) ?? [] { pass(delivery.message, shared: delivery.text, in: room) }
        case .closed(let room):
            state.sentSeq[room] = nil
            state.waiting[room] = nil
        }
        return (frames, left)
    }
}
