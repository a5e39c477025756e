import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// A shared text's frame, made once for every socket, is what the connection's encoder would write.
@Suite("Live texts")
struct LiveTextTests {
    /// A connection as a live socket's after the upgrade: the frame encoder next to the socket.
    static func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Everything written to the socket, as one run of bytes.
    static func bytes(_ channel: EmbeddedChannel) throws -> [UInt8] {
        try writes(channel).flatMap { $0 }
    }

    /// Each write that reached the socket, in order.
    static func writes(_ channel: EmbeddedChannel) throws -> [[UInt8]] {
        channel.embeddedEventLoop.run()
        var writes: [[UInt8]] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { writes.append(Array(buffer.readableBytesView)) }
        return writes
    }

    @Test(
        "a shared text's frame is byte for byte the encoder's, at every length form", arguments: [0, 1, 125, 126, 65_535, 65_536, 70_000])
    func sharedFrameIsTheEncoders(length: Int) throws {
        let json = ByteBuffer(repeating: UInt8(ascii: "x"), count: length)
        let encoded = try Self.connection()
        try encoded.writeOutbound(WebSocketFrame(fin: true, opcode: .text, data: json))
        let made = try #require(LiveText.shared(json).frame)
        #expect(Array(made.readableBytesView) == (try Self.bytes(encoded)))
    }

    @Test("shared and own texts go out in the order given, and `written` runs once the last is written")
    func mixedTextsInOrder() throws {
        let texts = [
            LiveText(ByteBuffer(string: #"{"a":1}"#)), LiveText.shared(ByteBuffer(string: #"{"b":2}"#)),
            LiveText(ByteBuffer(string: #"{"c":3}"#)), LiveText.shared(ByteBuffer(string: #"{"d":4}"#)),
        ]
        let direct = try Self.connection()
        for text in texts { try direct.writeOutbound(WebSocketFrame(fin: true, opcode: .text, data: text.json)) }

        let channel = try Self.connection()
        let written = NIOLockedValueBox(0)
        channel.writeTextFrames(texts) { written.withLockedValue { $0 += 1 } }
        let writes = try Self.writes(channel)
        #expect(writes.flatMap { $0 } == (try Self.bytes(direct)))
        // The encoder sends an own text's header as a write of its own; a shared text's frame goes
        // below it whole.
        #expect(writes.count == 6)
        #expect(written.withLockedValue { $0 } == 1)
    }
}
