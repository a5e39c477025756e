public import NIOCore
import NIOWebSocket

extension Channel {
    /// Writes JSON texts as WebSocket text frames, in one hop to the connection's event loop, and
    /// calls `written` once the last is written (or failed). Live sockets write this way straight from
    /// a feed's delivery, with no task per socket: a hop made under a socket's lock keeps its frames in
    /// the order they were posted.
    public func writeTextFrames(_ texts: [ByteBuffer], written: @escaping @Sendable () -> Void) {
        guard let last = texts.last else { return written() }
        eventLoop.execute {
            for text in texts.dropLast() { self.write(WebSocketFrame(fin: true, opcode: .text, data: text), promise: nil) }
            self.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: last)).whenComplete { _ in written() }
        }
    }
}

/// The writes a live socket's outbox (chat's, games') has handed its connection and not yet seen
/// written. It lives in the outbox's locked state and is used under that lock, so the hops to the
/// event loop are made in the order things were posted. Nothing waits per socket; what a device does
/// not take is bounded instead: one that lets `limit` writes pile up cannot keep up. Its outbox then
/// sends nothing more and ends the socket's reading (swift-websocket closes it politely), and cuts
/// the connection after a drain time unless it ended by then (`LiveSockets.cutOff`): a device that
/// stopped reading never takes the close. It resumes later from where it was.
public struct LiveWrites: Sendable {
    let limit: Int
    private var unwritten = 0

    public init(limit: Int) { self.limit = limit }

    /// Hands `frames` to `channel`; `written` runs once they are written (or failed) and must call
    /// `finished()` under the outbox's lock. False, with nothing handed over, when `limit` writes are
    /// still unwritten.
    public mutating func hand(_ frames: [ByteBuffer], to channel: any Channel, written: @escaping @Sendable () -> Void) -> Bool {
        guard unwritten < limit else { return false }
        unwritten += 1
        channel.writeTextFrames(frames, written: written)
        return true
    }

    /// One handed write is written.
    public mutating func finished() { unwritten -= 1 }
}
