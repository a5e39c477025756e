import ArgumentParser
import Contracts
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceKitTesting

/// Every device reads on this one event loop, so the load the benchmark makes takes one of the
/// machine's two cores at most, as in every figure in bench/README: the devices landed on one loop
/// of the shared group before, each connect having asked it for a loop twice. Spread over both loops
/// one evening, chat at 10,000 sockets gave p99 255.7 ms against 218.0 on one, the live match 466
/// and 506 ms against 481 and 488: within the noise, and not what limits either.
private let devicesLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// A benchmark's device on a live socket, made of NIO channel handlers alone: each text frame is kept
/// with its arrival time by the event loop that read it (`ReceivedTexts`), and decoded only when the
/// benchmark reads the arrivals. Tests use `LiveDevice` (HummingbirdWSClient: an async sequence and
/// two tasks per socket); at 10,000 sockets on the two cores the server is measured on, its task
/// switches per frame were the devices' largest cost, and they showed as server latency.
final class BenchSocket<Message: Decodable & Sendable>: Sendable {
    struct Received: Sendable {
        let message: Message
        let at: ContinuousClock.Instant
        /// Bytes in the frame's text.
        let bytes: Int
    }

    private let channel: any Channel
    private let frames: NIOLockedValueBox<[(text: ReceivedTexts.Text, at: ContinuousClock.Instant)]>

    private init(channel: any Channel, frames: NIOLockedValueBox<[(text: ReceivedTexts.Text, at: ContinuousClock.Instant)]>) {
        self.channel = channel
        self.frames = frames
    }

    /// Every read into a buffer that holds a whole frame of the largest kind sent (a live match of
    /// 4–5 KB), the same size from the first frame to the last. With NIO's adaptive buffers (2 KB at
    /// first, grown after a read that filled one) the devices grew theirs during the second change
    /// after 10,000 connected, page faults and copies in the devices' loop that took it twice the CPU
    /// of the other changes, and that change's p99 was 208–409 ms against 121–181 for the rest
    /// (`live-match --clients 10000`, six runs, perf over the devices' loop): a cost of the load
    /// generator, not of the server it measures.
    static var receiveBuffers: FixedSizeRecvByteBufferAllocator { FixedSizeRecvByteBufferAllocator(capacity: 16 * 1024) }

    /// Opens `path` at `baseURL` (`http://host:port`), with a bearer token when given.
    static func connect(baseURL: String, path: String, token: String? = nil) async throws -> BenchSocket {
        guard let url = URL(string: baseURL), let host = url.host, let port = url.port else {
            throw ValidationError("not an address: \(baseURL)")
        }
        let frames = NIOLockedValueBox<[(text: ReceivedTexts.Text, at: ContinuousClock.Instant)]>([])
        let loop = devicesLoop.next()
        let upgraded = Outcome(loop.makePromise(of: Void.self))
        var headers = HTTPHeaders([("Host", "\(host):\(port)")])
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.recvAllocator, value: Self.receiveBuffers)
            .channelInitializer { channel in
                let upgrader = NIOWebSocketClientUpgrader(
                    requestKey: Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), maxFrameSize: 1 << 20
                ) { channel, _ in
                    // The frame handlers go last, so the request's handler, which only reads HTTP, leaves.
                    channel.pipeline.removeHandler(name: "upgrade-request")
                        .flatMap { channel.pipeline.addHandler(FrameRecorder(frames: frames)) }
                        .map { upgraded.settle(.success(())) }
                }
                // The first frame may come in the same read as the upgrade's answer: the HTTP
                // decoder hands on what it read past the answer instead of dropping it.
                return channel.pipeline.addHTTPClientHandlers(
                    leftOverBytesStrategy: .forwardBytes,
                    withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
                ).flatMap { channel.pipeline.addHandler(UpgradeRequest(head: request, upgraded: upgraded), name: "upgrade-request") }
            }
            .connect(host: host, port: port).get()
        channel.closeFuture.whenComplete { _ in upgraded.settle(.failure(ValidationError("the socket at \(path) was closed"))) }
        try await upgraded.promise.futureResult.get()
        return BenchSocket(channel: channel, frames: frames)
    }

    /// Sends `message` as a text frame.
    func send(_ message: some Encodable) throws {
        let data = try HuddleJSON.encoder.encode(message)
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(bytes: data))
        channel.writeAndFlush(frame, promise: nil)
    }

    /// The frames received so far from the `first`-th on that decode as a `Message`, in order.
    func arrivals(from first: Int = 0) -> [Received] {
        frames.withLockedValue { Array($0.dropFirst(first)) }.compactMap { text, at in
            ReceivedTexts.shared.message(text, as: Message.self).map { Received(message: $0, at: at, bytes: text.bytes) }
        }
    }

    /// Frames received so far.
    var frameCount: Int { frames.withLockedValue { $0.count } }

    /// Waits (up to `timeout`) until a message satisfies `condition`; returns whether one did.
    func waitFor(timeout: Duration, _ condition: @Sendable (Message) -> Bool) async throws -> Bool {
        try await eventually(within: timeout, every: .milliseconds(10)) { arrivals().contains { condition($0.message) } }
    }

    func close() async {
        try? await channel.close()
    }
}

/// The upgrade's outcome, settled by whichever comes first: the upgrade, a refusal, or the socket closing.
private final class Outcome: Sendable {
    let promise: EventLoopPromise<Void>
    private let settled = NIOLockedValueBox(false)

    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

    func settle(_ result: Result<Void, any Error>) {
        guard
            settled.withLockedValue({ done in
                defer { done = true }; return !done
            })
        else { return }
        promise.completeWith(result)
    }
}

/// Sends the upgrade request once connected; an answer other than the upgrade fails the socket.
private final class UpgradeRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let head: HTTPRequestHead
    let upgraded: Outcome

    init(head: HTTPRequestHead, upgraded: Outcome) {
        self.head = head
        self.upgraded = upgraded
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only a refusal reaches here: an accepted upgrade replaces the HTTP handlers.
        if case .head(let response) = unwrapInboundIn(data) {
            upgraded.settle(.failure(ValidationError("upgrade refused: \(response.status.code)")))
            context.close(promise: nil)
        }
    }
}

/// Keeps each text frame with its arrival time, and answers pings.
private final class FrameRecorder: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let frames: NIOLockedValueBox<[(text: ReceivedTexts.Text, at: ContinuousClock.Instant)]>

    init(frames: NIOLockedValueBox<[(text: ReceivedTexts.Text, at: ContinuousClock.Instant)]>) {
        self.frames = frames
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            let at = ContinuousClock.now
            let text = ReceivedTexts.shared.keep(frame.unmaskedData)
            frames.withLockedValue { $0.append((text, at)) }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }
}

/// The text frames every device received, each distinct text kept once and decoded at most once per
/// message type. The devices of a benchmark are sent the same few texts (a change, a message) each:
/// kept as read, every frame held on to the buffer NIO had read it into, so every read took fresh
/// memory, and at 10,000 devices page faults and malloc's `mprotect` were about 30 % of the devices'
/// CPU during the live match's changes (perf). A kept text is a copy of its bytes, so NIO reads the
/// next frame into the same buffer: the devices' CPU a delivery went from 33.6 and 53.4 µs to 16.2
/// and 16.7, and the live match's p99 at 10,000 devices from 698 and 778 ms to 294 and 312.
final class ReceivedTexts: Sendable {
    /// A kept text: its place among the distinct texts.
    struct Text: Sendable {
        fileprivate let index: Int
        let bytes: Int
    }

    static let shared = ReceivedTexts()

    private struct Kept {
        var indices: [ByteBuffer: Int] = [:]
        var texts: [ByteBuffer] = []
        var messages: [Int: [ObjectIdentifier: any Sendable]] = [:]
    }
    private let kept = NIOLockedValueBox(Kept())

    func keep(_ text: ByteBuffer) -> Text {
        kept.withLockedValue { kept in
            // Devices read one text after another: comparing with the last costs less than hashing.
            if let last = kept.texts.last, last == text { return Text(index: kept.texts.count - 1, bytes: text.readableBytes) }
            if let index = kept.indices[text] { return Text(index: index, bytes: text.readableBytes) }
            let copy = ByteBuffer(bytes: text.readableBytesView)
            kept.texts.append(copy)
            kept.indices[copy] = kept.texts.count - 1
            return Text(index: kept.texts.count - 1, bytes: text.readableBytes)
        }
    }

    /// The text decoded as a `Message`, or nil when it is not one.
    func message<Message: Decodable & Sendable>(_ text: Text, as type: Message.Type) -> Message? {
        let (bytes, known) = kept.withLockedValue { kept in (kept.texts[text.index], kept.messages[text.index]?[ObjectIdentifier(type)]) }
        if let known { return known as? Message }
        guard let message = try? HuddleJSON.decoder.decode(Message.self, from: Data(bytes.readableBytesView)) else { return nil }
        kept.withLockedValue { $0.messages[text.index, default: [:]][ObjectIdentifier(type)] = message }
        return message
    }
}
