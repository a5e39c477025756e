import Contracts
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import ServiceHTTP
import Testing

@testable import GamesService
@testable import ServiceKit

/// What a live socket is sent, and in what order, straight from the feed: on an embedded channel.
@Suite("A live socket's outbox")
struct LiveOutboxTests {
    struct Change: VersionedMessage { let version: Int }

    static func delivery(_ version: Int) -> LiveDelivery<Change> {
        LiveDelivery(message: Change(version: version), json: ByteBuffer(string: #"{"version":\#(version)}"#))
    }

    /// The texts written to the connection so far.
    static func written(_ channel: EmbeddedChannel) throws -> [String] {
        channel.embeddedEventLoop.run()
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) { texts.append(String(buffer: frame.data)) }
        return texts
    }

    static func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    @Test("changes that come before the opening follow it, each version once and in order")
    func openingFirst() throws {
        let channel = try Self.connected()
        let outbox = LiveOutbox<Change>(channel: channel, sentThrough: 3, limit: 10, cutOff: {})
        outbox.deliver(Self.delivery(4))
        outbox.deliver(Self.delivery(5))
        #expect(try Self.written(channel).isEmpty)
        outbox.open([Change(version: 4)], sentThrough: 4)
        outbox.deliver(Self.delivery(5))
        outbox.deliver(Self.delivery(6))
        outbox.deliver(Self.delivery(6))
        #expect(try Self.written(channel) == [#"{"version":4}"#, #"{"version":5}"#, #"{"version":6}"#])
        #expect(outbox.lastSent == 6)
    }

    @Test("a device whose writes pile up unwritten past the limit is sent nothing more and cut off")
    func stalledDevice() throws {
        let channel = try Self.connected()
        let held = HeldWrites()
        try channel.pipeline.syncOperations.addHandler(held)
        let cutOffs = NIOLockedValueBox(0)
        let outbox = LiveOutbox<Change>(channel: channel, sentThrough: 0, limit: 3, cutOff: { cutOffs.withLockedValue { $0 += 1 } })
        outbox.open([], sentThrough: 0)
        for version in 1...3 { outbox.deliver(Self.delivery(version)) }
        channel.embeddedEventLoop.run()
        #expect(cutOffs.withLockedValue { $0 } == 0)
        outbox.deliver(Self.delivery(4))
        channel.embeddedEventLoop.run()
        #expect(cutOffs.withLockedValue { $0 } == 1)
        outbox.deliver(Self.delivery(5))
        outbox.reply(Change(version: 5))
        channel.embeddedEventLoop.run()
        #expect(held.count == 3)
        #expect(cutOffs.withLockedValue { $0 } == 1)
    }
}

/// Holds every write without writing it, as a connection whose device stopped reading; fails them when
/// the channel's output closes, as NIO does (closing only the input fails no write).
private final class HeldWrites: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = WebSocketFrame
    private var promises: [EventLoopPromise<Void>?] = []
    var count: Int { promises.count }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) { promises.append(promise) }

    func flush(context: ChannelHandlerContext) {}

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode != .input { for held in promises { held?.fail(ChannelError.ioOnClosedChannel) } }
        context.close(mode: mode, promise: promise)
    }
}
