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
