import HTTPTypes
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// Joins a client's WebSocket to the same path on a module.
///
/// The upstream socket is opened *before* the client's upgrade is accepted: if the module refuses
/// (401, 403, 404) or is down, the client is answered what the module answers the same path over
/// plain HTTP (`refusal` in GatewayService), rather than an upgrade that closes at once.
struct WebSocketBridge: Sendable {
    static let maxMessageSize = 1 << 20

    private let fromUpstream: AsyncStream<WebSocketMessage>
    private let toUpstream: AsyncStream<WebSocketMessage>.Continuation
    private let pumping = NIOLockedValueBox(false)
    /// How the module closed its end, once it did.
    private let upstreamClose: NIOLockedValueBox<WebSocketErrorCode?>

    /// Connects to `url`; nil when the module does not accept the upgrade. At most `buffer` messages
    /// from the module wait for the device: one that falls that far behind is not taking them, so the
    /// link to the module ends (the module sees its socket close; the app resumes when back) and
    /// `cutOff` is called, rather than the gateway holding, without end, what the device never reads.
    static func open(url: String, headers: HTTPFields, buffer: Int, cutOff: @escaping @Sendable () -> Void, logger: Logger) async
        -> WebSocketBridge?
    {
        let (fromUpstream, fromUpstreamInput) = AsyncStream<WebSocketMessage>.makeStream(bufferingPolicy: .bufferingOldest(buffer))
        let (toUpstream, toUpstreamInput) = AsyncStream<WebSocketMessage>.makeStream()
        let (connected, connectedInput) = AsyncStream<Bool>.makeStream()
        let upstreamClose = NIOLockedValueBox<WebSocketErrorCode?>(nil)
        Task {
            do {
                let closed = try await WebSocketClient.connect(
                    url: url, configuration: .init(maxFrameSize: maxMessageSize, additionalHeaders: headers), logger: logger
                ) { inbound, outbound, _ in
                    connectedInput.yield(true)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in inbound.messages(maxSize: maxMessageSize) {
                                if case .dropped = fromUpstreamInput.yield(message) { return cutOff() }
                            }
                        }
                        group.addTask {
                            for await message in toUpstream { try await outbound.write(message.frame) }
                        }
                        // Whichever side ends first ends the bridge.
                        try await group.next()
                        group.cancelAll()
                    }
                }
                upstreamClose.withLockedValue { $0 = closed?.closeCode }
            } catch {
                logger.debug("upstream websocket \(url) ended: \(error)")
            }
            connectedInput.yield(false)
            fromUpstreamInput.finish()
        }
        var iterator = connected.makeAsyncIterator()
        guard await iterator.next() == true else { return nil }
        let bridge = WebSocketBridge(fromUpstream: fromUpstream, toUpstream: toUpstreamInput, upstreamClose: upstreamClose)
        // If the client's side of the upgrade never completes, do not hold the module's socket open.
        Task {
            try? await Task.sleep(for: .seconds(10))
            if !bridge.pumping.withLockedValue({ $0 }) { toUpstreamInput.finish() }
        }
        return bridge
    }

    /// Pumps messages both ways until either side closes. A module instance that goes away (1001, its
    /// shutdown) is passed on to the device as 1001, so the device reconnects (to another instance); a
    /// socket whose session ended (1008) as 1008, so the device signs in again rather than reconnects.
    func pump(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        pumping.withLockedValue { $0 = true }
        defer { toUpstream.finish() }
        try? await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await message in inbound.messages(maxSize: Self.maxMessageSize) { toUpstream.yield(message) }
            }
            group.addTask {
                for await message in fromUpstream { try await outbound.write(message.frame) }
            }
            try await group.next()
            group.cancelAll()
        }
        switch upstreamClose.withLockedValue({ $0 }) {
        case .goingAway?: try? await outbound.close(.goingAway, reason: "module instance shutting down")
        case .policyViolation?: try? await outbound.close(.policyViolation, reason: "session ended")
        default: break
        }
    }
}

extension WebSocketMessage {
    var frame: WebSocketOutboundWriter.OutboundFrame {
        switch self {
        case .text(let text): .text(text)
        case .binary(let buffer): .binary(buffer)
        }
    }
}
