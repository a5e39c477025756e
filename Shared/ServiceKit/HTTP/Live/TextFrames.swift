public import NIOCore
import NIOWebSocket

/// A JSON text that a live socket sends as one WebSocket text frame. A text many sockets share (a
/// feed's change, sent to every device of a match or a room) carries its whole frame, made once, and
/// is written to each connection below the frame encoder: perf over chat's fan-out to 10,000 sockets
/// put 9 % of chat's CPU in the encoder (a frame header written and sent down the pipeline as a write
/// of its own per socket), `huddle-bench chat`.
public struct LiveText: Sendable {
    public let json: ByteBuffer
    /// The unmasked text frame carrying `json`, header and all, byte for byte what `WebSocketFrameEncoder`
    /// writes for it (a server's frames are not masked).
    let frame: ByteBuffer?

    /// A text for one socket, framed by the connection's encoder.
    public init(_ json: ByteBuffer) {
        self.json = json
        self.frame = nil
    }

    private init(json: ByteBuffer, frame: ByteBuffer) {
        self.json = json
        self.frame = frame
    }

    /// A text many sockets share, its frame made now.
    public static func shared(_ json: ByteBuffer) -> LiveText {
        var frame = ByteBuffer()
        frame.reserveCapacity(json.readableBytes + 10)
        // FIN and the text opcode, then the length as RFC 6455 5.2 writes it (no mask bit).
        frame.writeInteger(UInt8(0x81))
        switch json.readableBytes {
        case ..<126: frame.writeInteger(UInt8(json.readableBytes))
        case ...Int(UInt16.max):
            frame.writeInteger(UInt8(126))
            frame.writeInteger(UInt16(json.readableBytes))
        default:
            frame.writeInteger(UInt8(127))
            frame.writeInteger(UInt64(json.readableBytes))
        }
        frame.writeImmutableBuffer(json)
        return LiveText(json: json, frame: frame)
    }
}

extension Channel {
    /// Writes texts as WebSocket text frames, in one hop to the connection's event loop, and calls
    /// `written` once the last is written (or failed). Live sockets write this way straight from a
    /// feed's delivery, with no task per socket: a hop made under a socket's lock keeps its frames in
    /// the order they were posted. A shared text's frame goes straight below the frame encoder; on a
    /// connection without one (a test's), every text goes through the pipeline as a frame.
    public func writeTextFrames(_ texts: [LiveText], written: @escaping @Sendable () -> Void) {
        guard !texts.isEmpty else { return written() }
        eventLoop.execute {
            // Looked up only for a shared text: a socket's own answers need no walk of its pipeline.
            let belowEncoder =
                texts.contains { $0.frame != nil }
                ? try? self.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self) : nil
            let lastWritten = self.eventLoop.makePromise(of: Void.self)
            for (index, text) in texts.enumerated() {
                let promise = index == texts.count - 1 ? lastWritten : nil
                if let frame = text.frame, let belowEncoder {
                    belowEncoder.write(NIOAny(frame), promise: promise)
                } else {
                    self.write(WebSocketFrame(fin: true, opcode: .text, data: text.json), promise: promise)
                }
            }
            self.flush()
            lastWritten.futureResult.whenComplete { _ in written() }
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
    public mutating func hand(_ frames: [LiveText], to channel: any Channel, written: @escaping @Sendable () -> Void) -> Bool {
        guard unwritten < limit else { return false }
        unwritten += 1
        channel.writeTextFrames(frames, written: written)
        return true
    }

    /// One handed write is written.
    public mutating func finished() { unwritten -= 1 }
}
