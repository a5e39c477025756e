public import Contracts
import Foundation
public import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
public import NIOWebSocket

/// A device on a round's live socket.
public typealias LiveSocket = LiveDevice<LiveMessage>
/// A device following a match's live socket.
public typealias MatchSocket = LiveDevice<MatchChange>

/// A device on a live socket, for tests and the benchmark: it collects every message it receives
/// (with when it arrived) and sends text (score updates on a round's).
///
/// Frames are kept as text with their arrival time and decoded when read: a device's own decoding
/// is not the server's latency, and 1,000 devices decoding a 4 KB match on arrival took the same
/// two cores the server was measured on.
public final class LiveDevice<Message: Decodable & Sendable>: Sendable {
    public struct Received: Sendable {
        public let message: Message
        public let at: ContinuousClock.Instant
    }

    public enum Refused: Error { case upgrade }

    private struct Frames {
        var texts: [(text: String, at: ContinuousClock.Instant)] = []
        /// How many of `texts` were decoded into `decoded`.
        var read = 0
        var decoded: [Received] = []
    }

    private let outgoing: AsyncStream<WebSocketOutboundWriter.OutboundFrame>.Continuation
    private let frames: NIOLockedValueBox<Frames>
    private let closeCode: NIOLockedValueBox<WebSocketErrorCode?>
    private let task: Task<Void, Never>

    private init(
        outgoing: AsyncStream<WebSocketOutboundWriter.OutboundFrame>.Continuation, frames: NIOLockedValueBox<Frames>,
        closeCode: NIOLockedValueBox<WebSocketErrorCode?>, task: Task<Void, Never>
    ) {
        self.outgoing = outgoing
        self.frames = frames
        self.closeCode = closeCode
        self.task = task
    }

    /// The code of the close frame the server sent, once the socket has closed (nil before, or when it
    /// ended without one).
    public var closedWith: WebSocketErrorCode? { closeCode.withLockedValue { $0 } }

    /// Connects to `baseURL` (`http://…`) + `path`; throws `Refused.upgrade` when the server does
    /// not accept the socket.
    /// `headers` are added to the upgrade request (e.g. `Sec-WebSocket-Protocol`).
    public static func connect(baseURL: String, path: String, token: String?, headers: HTTPFields = [:]) async throws -> LiveDevice {
        let url = "ws" + baseURL.dropFirst("http".count) + path
        var upgradeHeaders = headers
        if let token { upgradeHeaders[.authorization] = "Bearer \(token)" }
        let (outgoing, outgoingInput) = AsyncStream<WebSocketOutboundWriter.OutboundFrame>.makeStream()
        let (opened, openedInput) = AsyncStream<Bool>.makeStream()
        let frames = NIOLockedValueBox(Frames())
        let closeCode = NIOLockedValueBox<WebSocketErrorCode?>(nil)
        let task = Task {
            do {
                let closed = try await WebSocketClient.connect(
                    url: url,
                    configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: upgradeHeaders),
                    logger: Logger(label: "live-socket")
                ) { inbound, outbound, _ in
                    openedInput.yield(true)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await frame in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = frame else { continue }
                                let at = ContinuousClock.now
                                frames.withLockedValue { $0.texts.append((text, at)) }
                            }
                        }
                        group.addTask {
                            for await frame in outgoing { try await outbound.write(frame) }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                closeCode.withLockedValue { $0 = closed?.closeCode }
            } catch {}
            openedInput.yield(false)
        }
        var iterator = opened.makeAsyncIterator()
        guard await iterator.next() == true else { throw Refused.upgrade }
        return LiveDevice(outgoing: outgoingInput, frames: frames, closeCode: closeCode, task: task)
    }

    /// Everything received so far, in order (frames that are not a `Message` are left out).
    public var messages: [Message] { arrivals.map(\.message) }

    public var arrivals: [Received] {
        frames.withLockedValue { frames in
            for (text, at) in frames.texts[frames.read...] {
                if let message = try? HuddleJSON.decoder.decode(Message.self, from: Data(text.utf8)) {
                    frames.decoded.append(Received(message: message, at: at))
                }
            }
            frames.read = frames.texts.count
            return frames.decoded
        }
    }

    public func send(_ update: some Encodable) throws {
        outgoing.yield(.text(String(decoding: try HuddleJSON.encoder.encode(update), as: UTF8.self)))
    }

    /// Sends raw text, e.g. something that is not a score.
    public func send(text: String) { outgoing.yield(.text(text)) }

    /// Sends one text message split over frames: the first, then continuations, the last with FIN.
    public func send(fragments: [String]) {
        for (index, fragment) in fragments.enumerated() {
            let frame = WebSocketFrame(
                fin: index == fragments.count - 1, opcode: index == 0 ? .text : .continuation, data: ByteBuffer(string: fragment))
            outgoing.yield(.custom(frame))
        }
    }

    /// Sends a binary message.
    public func send(binary: [UInt8]) { outgoing.yield(.binary(ByteBuffer(bytes: binary))) }

    /// Waits (up to `timeout`) until a message satisfies `condition`; returns whether one did.
    @discardableResult
    public func waitFor(timeout: Duration = patience, _ condition: @Sendable (Message) -> Bool) async throws -> Bool {
        try await eventually(within: timeout, every: .milliseconds(10)) { messages.contains(where: condition) }
    }

    /// Closes the socket and waits until it is closed.
    public func close() async {
        outgoing.finish()
        await task.value
    }
}

extension LiveDevice where Message == LiveMessage {
    /// A player's device on `/v1/rounds/{round}/live`.
    public static func connect(baseURL: String, round: RoundID, token: String, afterVersion: Int? = nil) async throws -> LiveSocket {
        try await connect(
            baseURL: baseURL, path: "/v1/rounds/\(round)/live" + (afterVersion.map { "?afterVersion=\($0)" } ?? ""), token: token)
    }
}

extension LiveDevice where Message == MatchChange {
    /// A device following `/v1/matches/{match}/live`; no sign-in needed.
    public static func connect(baseURL: String, match: MatchID, afterVersion: Int? = nil) async throws -> MatchSocket {
        try await connect(
            baseURL: baseURL, path: "/v1/matches/\(match)/live" + (afterVersion.map { "?afterVersion=\($0)" } ?? ""), token: nil)
    }
}

/// A device on `/v1/chat/live`.
public typealias ChatSocket = LiveDevice<ChatServerFrame>

extension LiveDevice where Message == ChatServerFrame {
    public static func connect(baseURL: String, chatToken token: String) async throws -> ChatSocket {
        try await connect(baseURL: baseURL, path: "/v1/chat/live", token: token)
    }

    /// The messages of `room` received so far, in order.
    public func messages(in room: RoomID) -> [ChatMessage] {
        messages.filter { $0.type == .message && $0.roomId == room }.compactMap(\.message)
    }
}
