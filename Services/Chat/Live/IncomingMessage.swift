import HummingbirdWebSocket
import NIOCore

/// A device's message put together from its socket's frames (RFC 6455 §5.4: a text or binary frame,
/// then continuations until one with FIN).
///
/// swift-websocket's `messages(maxSize:)` does the same, but its iterator's frames, kept for the
/// socket's life by the task that reads, cost an idle chat socket 1.0 KB (`huddle-bench chat`).
struct IncomingMessage {
    enum Complete: Equatable, Sendable {
        case text(ByteBuffer)
        case binary
        /// Over `maxSize`.
        case tooLarge
        /// A continuation with nothing to continue.
        case strayContinuation
    }

    let maxSize: Int
    private var data = ByteBuffer()
    private var kind: Kind = .none

    private enum Kind {
        case none, text, binary, tooLarge, strayContinuation
    }

    init(maxSize: Int) { self.maxSize = maxSize }

    /// The message `frame` completes, if it does.
    mutating func add(_ frame: WebSocketDataFrame) -> Complete? {
        add(opcode: frame.opcode, data: frame.data, fin: frame.fin)
    }

    mutating func add(opcode: WebSocketDataFrame.Opcode, data part: ByteBuffer, fin: Bool) -> Complete? {
        switch opcode {
        case .text, .binary:
            data.clear()
            kind = opcode == .text ? .text : .binary
        case .continuation:
            if kind == .none { kind = .strayContinuation }
        }
        if kind == .text || kind == .binary {
            if data.readableBytes + part.readableBytes > maxSize {
                kind = .tooLarge
                data.clear()
            } else {
                var part = part
                data.writeBuffer(&part)
            }
        }
        guard fin else { return nil }
        defer {
            data = ByteBuffer()
            kind = .none
        }
        switch kind {
        case .text: return .text(data)
        case .binary: return .binary
        case .tooLarge: return .tooLarge
        case .none, .strayContinuation: return .strayContinuation
        }
    }
}
