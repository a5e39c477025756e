import NIOCore
import NIOHTTP1

/// What a module answered: its head, and its body either whole (a small body of known size,
/// read before the answer is handed on) or as a stream read from the connection as it is taken.
struct UpstreamResponse: Sendable {
    enum Body: Sendable {
        case whole(ByteBuffer)
        case stream(UpstreamBodyStream)
    }

    var head: HTTPResponseHead
    var body: Body
}

typealias UpstreamBodyStream = NIOThrowingAsyncSequenceProducer<
    ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, UpstreamBodyDemand
>

/// Why an exchange with a module failed.
enum UpstreamFailure: Error, Equatable {
    /// No connection could be made (refused, unresolvable, connect timeout) or the client is shut down.
    case unreachable
    /// The module did not answer before the deadline.
    case timedOut
    /// A pooled connection had closed before the request was sent: nothing reached the module.
    case stale
    /// The connection closed before the answer was complete.
    case closed(beforeResponse: Bool)
}

/// Connects a streamed body's reader to the connection: reading stops while the reader is behind,
/// and a reader that stops early closes the connection, whose rest of the answer is now unwanted.
struct UpstreamBodyDemand: NIOAsyncSequenceProducerDelegate {
    let channel: any Channel
    let exchange: UpstreamExchangeHandler.ExchangeReference

    func produceMore() {
        channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
    }

    func didTerminate() {
        let exchange = exchange
        channel.eventLoop.execute { exchange.readerStopped() }
    }
}
