import Foundation
import HTTPTypes
import HuddleKit
import HummingbirdWSClient
import Logging
import NIOWebSocket

/// A `LiveTransport` on Hummingbird's WebSocket client, for tests on Linux, where URLSession's
/// WebSockets need a libcurl built with them (this machine's is not).
struct WebSocketLiveTransport: LiveTransport {
    func connect(to url: URL, headers: [String: String]) async throws -> any LiveConnection {
        let (inbound, inboundInput) = AsyncThrowingStream<String, any Error>.makeStream()
        let (outbound, outboundInput) = AsyncStream<String>.makeStream()
        let (opened, openedInput) = AsyncStream<Bool>.makeStream()
        var fields = HTTPFields()
        for (name, value) in headers { if let field = HTTPField.Name(name) { fields[field] = value } }
        let task = Task {
            do {
                try await WebSocketClient.connect(
                    url: url.absoluteString, configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: fields),
                    logger: Logger(label: "live-transport")
                ) { socketInbound, socketOutbound, _ in
                    openedInput.yield(true)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await frame in socketInbound.messages(maxSize: 1 << 20) {
                                if case .text(let text) = frame { inboundInput.yield(text) }
                            }
                        }
                        group.addTask {
                            for await text in outbound { try await socketOutbound.write(.text(text)) }
                            try await socketOutbound.close(.normalClosure, reason: nil)
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                inboundInput.finish()
            } catch {
                inboundInput.finish(throwing: TransportFailure("\(error)"))
            }
            openedInput.yield(false)
        }
        var iterator = opened.makeAsyncIterator()
        guard await iterator.next() == true else {
            throw TransportFailure("the socket was refused")
        }
        return Connection(inbound: Inbox(inbound.makeAsyncIterator()), outbound: outboundInput, task: task)
    }

    /// The frames received, read one at a time.
    actor Inbox {
        private var iterator: AsyncThrowingStream<String, any Error>.AsyncIterator

        init(_ iterator: AsyncThrowingStream<String, any Error>.AsyncIterator) { self.iterator = iterator }

        func next() async throws -> String? {
            var reading = iterator
            defer { iterator = reading }
            return try await reading.next(isolation: self)
        }
    }

    struct Connection: LiveConnection {
        let inbound: Inbox
        let outbound: AsyncStream<String>.Continuation
        let task: Task<Void, Never>

        func receive() async throws -> String? { try await inbound.next() }

        func send(_ text: String) async throws { outbound.yield(text) }

        func close() async {
            outbound.finish()
            task.cancel()
        }
    }
}
