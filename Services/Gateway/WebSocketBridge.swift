import HTTPTypes
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore

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
        Task {
            do {
                try await WebSocketClient.connect(
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
            } catch {
                logger.debug("upstream websocket \(url) ended: \(error)")
            }
            connectedInput.yield(false)
            fromUpstreamInput.finish()
        }
        var iterator = connected.makeAsyncIterator()
        guard await iterator.next() == true else { return nil }
        let bridge = WebSocketBridge(fromUpstream: fromUpstream, toUpstream: toUpstreamInput)
        // If the client's side of the upgrade never completes, do not hold the module's socket open.
        Task {
            try? await Task.sleep(for: .seconds(10))
            if !bridge.pumping.withLockedValue({ $0 }) { toUpstreamInput.finish() }
        }
        return bridge
    }

    /// Pumps messages both ways until either side closes.
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
