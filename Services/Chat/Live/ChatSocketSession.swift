import Contracts
import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceHTTP
import ServiceStore
import Tracing

/// One device's chat socket: the rooms it subscribes to, each room's missed messages then its live
/// changes, and what it sends. What the device is sent goes through its `ChatOutbox`, in order and
/// bounded: a device that falls that far behind is disconnected (it resumes from its last seq)
/// rather than slowing the room's other sockets or growing without end.
///
/// A class, holding what all sockets share by reference: each await of the socket's task, which
/// lives as long as the socket, keeps its own copy of a struct it uses.
final class ChatSocketSession: Sendable {
    let user: UserID
    let shared: ChatSockets
    let logger: Logger
    /// The socket's connection, which the outbox writes to.
    let channel: any Channel
    /// Cuts the connection after the drain time unless it ended by then (see `ChatSettings.socketDrain`).
    let cutOff: @Sendable () -> Void
    /// The socket's own id, for the rooms it follows to be known on every instance (`RoomPresence`).
    let id = UUID()

    init(user: UserID, shared: ChatSockets, logger: Logger, channel: any Channel, cutOff: @escaping @Sendable () -> Void) {
        self.user = user
        self.shared = shared
        self.logger = logger
        self.channel = channel
        self.cutOff = cutOff
    }

    /// Reads the device's frames until it closes (or the outbox ends the socket). This runs in the
    /// connection's own task, which the socket keeps anyway: an idle socket has no other.
    func run(inbound: WebSocketInboundStream) async throws {
        let outbox = ChatOutbox(
            user: user, channel: channel, live: shared.live, blocks: shared.blocks, limit: shared.settings.socketBuffer, cutOff: cutOff)
        do {
            var frames = inbound.makeAsyncIterator()
            var message = IncomingMessage(maxSize: ChatSockets.maxMessageSize)
            while let frame = try await frames.next() {
                guard let complete = message.add(frame) else { continue }
                // In a child task: a subscribe's reads would grow this task, which lives as long as
                // the socket, for good (see `ChatOutbox`).
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.handle(complete, outbox: outbox) }
                }
            }
        } catch {
            await unsubscribeAll(outbox)
            throw error
        }
        await unsubscribeAll(outbox)
    }

    // MARK: What the device sends

    private func handle(_ message: IncomingMessage.Complete, outbox: ChatOutbox) async {
        let text: ByteBuffer
        switch message {
        case .text(let received): text = received
        case .binary: return refuse("Frames are JSON text, not binary.", outbox: outbox)
        case .tooLarge: return refuse("A message is at most \(ChatSockets.maxMessageSize) bytes.", outbox: outbox)
        case .strayContinuation: return refuse("A continuation frame came with no message to continue.", outbox: outbox)
        }
        let value: JSONValue
        do {
            value = try JSONTree.read(Data(text.readableBytesView))
        } catch .tooDeep {
            return refuse("A frame nests arrays and objects at most \(JSONTree.maximumDepth) levels deep.", outbox: outbox)
        } catch {
            return refuse("Send a JSON frame: subscribe, unsubscribe or send.", outbox: outbox)
        }
        guard let frame = try? HuddleJSON.decoder.decode(ChatClientFrame.self, from: Data(text.readableBytesView)) else {
            return refuse("Send a JSON frame: subscribe, unsubscribe or send.", outbox: outbox)
        }
        // Each frame a device sends is a span of its socket's connect.
        await withSpan("receive \(frame.type.rawValue)", ofKind: .consumer) { span in
            span.attributes["huddle.module"] = ServiceModule.chat.rawValue
            await handle(frame, value: value, outbox: outbox)
        }
    }

    private func handle(_ frame: ChatClientFrame, value: JSONValue, outbox: ChatOutbox) async {
        do {
            // A frame keeps the rules its schema states, as a body does; a refusal names the field.
            try BodySchemas.shared.check(value, as: ChatClientFrame.self)
            switch frame.type {
            case .subscribe:
                try await subscribe(frame.roomId, afterSeq: frame.afterSeq, outbox: outbox)
            case .unsubscribe:
                if let id = outbox.unsubscribe(from: frame.roomId) {
                    await shared.live.unsubscribe(id, from: frame.roomId)
                    await shared.presence.leave(self.id, room: frame.roomId)
                }
                outbox.post(.closed(frame.roomId))
            case .send:
                let request = try BodySchemas.shared.decode(SendChatMessage.self, from: value)
                let (sent, _) = try await shared.messages.send(request, to: frame.roomId, by: user)
                // A room this socket follows gets the message from the feed, like everyone else.
                if outbox.subscription(to: frame.roomId) == nil {
                    outbox.post(.frame(ChatServerFrame(type: .message, roomId: frame.roomId, message: sent)))
                }
            }
        } catch let error as any ProblemError {
            var reply = Self.error(error.problem, room: frame.roomId, clientMessageId: frame.clientMessageId)
            if case ChatError.floodLimited(let seconds, _) = error { reply.retryAfter = seconds }
            outbox.post(.frame(reply))
        } catch {
            logger.warning("chat socket frame failed: \(error)")
            outbox.post(.frame(Self.error(CommonError.internalError.problem, room: frame.roomId, clientMessageId: frame.clientMessageId)))
        }
    }

    private func refuse(_ detail: ProblemText, outbox: ChatOutbox) {
        outbox.post(.frame(Self.error(CommonError.malformedBody(detail).problem)))
    }

    private func subscribe(_ room: RoomID, afterSeq: Int?, outbox: ChatOutbox) async throws {
        guard outbox.subscription(to: room) == nil else { return }
        let stored = try await shared.database.read { sql in try await self.shared.rooms.accessible(room, by: self.user, on: sql) }
        // Opening a match's room live follows it, as `PUT …/follow` does.
        if stored.kind == .match { _ = try await shared.rooms.follow(room, by: user) }
        let subscriber = LiveSubscriber<ChatChange>(
            deliver: { outbox.post(.change(room, $0)) },
            end: {
                // Ended by the feed while still subscribed: the service is stopping.
                if outbox.subscription(to: room) != nil { outbox.post(.closed(room)) }
            })
        // Present before the feed starts: a message sent meanwhile reaches the socket (in the
        // catch-up below) rather than the phone.
        await shared.presence.enter(self.id, room: room, user: user)
        let id = await shared.live.subscribe(subscriber, to: room, after: stored.version)
        outbox.subscribed(to: room, as: id)
        var missed: [ChatMessage] = []
        if var after = afterSeq {
            // Everything after the device's seq, oldest first, a page at a time.
            while after < stored.lastSeq {
                let page = try await shared.messages.history(of: room, before: nil, after: after, limit: 100, viewer: user).items
                guard let last = page.last else { break }
                missed += page.filter { $0.seq <= stored.lastSeq }
                after = last.seq
            }
        }
        let since = try await shared.messages.changes(of: room, after: stored.version)
        outbox.post(.opened(room, lastSeq: stored.lastSeq, missed: missed, since: since))
    }

    private func unsubscribeAll(_ outbox: ChatOutbox) async {
        let subscriptions = outbox.close()
        for (room, id) in subscriptions { await shared.live.unsubscribe(id, from: room) }
        if !subscriptions.isEmpty { await shared.presence.leave(self.id, room: nil) }
    }

    private static func error(_ problem: Problem, room: RoomID? = nil, clientMessageId: String? = nil) -> ChatServerFrame {
        ChatServerFrame(type: .error, roomId: room, code: problem.code, detail: problem.detail, clientMessageId: clientMessageId)
    }
}
