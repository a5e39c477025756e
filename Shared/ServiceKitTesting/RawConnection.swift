public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A client that writes whatever bytes it is given on a bare TCP connection and records what comes
/// back and whether the server closed it: for tests of what HTTP clients cannot send (oversized or
/// slow request heads, garbage).
public final class RawConnection: Sendable {
    private let channel: any Channel
    private let received: Received

    public static func open(baseURL: String) async throws -> RawConnection {
        guard let url = URL(string: baseURL), let host = url.host, let port = url.port else { throw URLError(.badURL) }
        let received = Received()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(received)) }
            }
            .connect(host: host, port: port).get()
        return RawConnection(channel: channel, received: received)
    }

    private init(channel: any Channel, received: Received) {
        self.channel = channel
        self.received = received
    }

    /// Writes `text` as it is (line breaks included).
    public func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    /// Writes `bytes` as they are (a WebSocket frame, say).
    public func send(bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
    }

    /// Whether the server has closed the connection.
    public var isClosed: Bool { received.closed.withLockedValue { $0 } }

    /// Everything the server sent so far, as text.
    public var answer: String { received.bytes.withLockedValue { String(decoding: $0, as: UTF8.self) } }

    /// The status code of the first response received, once it has arrived.
    public var status: Int? {
        let line = answer.prefix { $0 != "\r" }
        let parts = line.split(separator: " ")
        return parts.count >= 2 && line.hasPrefix("HTTP/1.1") ? Int(parts[1]) : nil
    }

    /// The body of the first response (what follows its head).
    public var body: Data { Data(bytesAfterHead) }

    /// What followed the first response's head, byte for byte (a WebSocket's frames, after its upgrade).
    public var bytesAfterHead: [UInt8] {
        received.bytes.withLockedValue { bytes in
            let end = Array("\r\n\r\n".utf8)
            guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: end) }) else { return [] }
            return Array(bytes[(start + end.count)...])
        }
    }

    public func close() async {
        try? await channel.close()
    }

    private final class Received: Sendable {
        let bytes = NIOLockedValueBox<[UInt8]>([])
        let closed = NIOLockedValueBox(false)
    }

    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: Received
        init(_ received: Received) { self.received = received }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.bytes.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            received.closed.withLockedValue { $0 = true }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
