public import HummingbirdCore
public import Logging
public import NIOCore

/// A server's connections with NIO's receive buffer starting at 1 KB instead of 2 KB. Each connection
/// keeps the buffer it was first read into for later reads, however idle it is, and grows it when a
/// read fills it: a live socket, whose first read is its upgrade request, then holds the smaller one.
/// With it chat held 29.7 KB per idle socket instead of 30.7 (`huddle-bench chat`, 10,000 sockets).
/// The servers of live sockets use it (`LiveSockets.server`, the gateway); for others, whose
/// connections are few and busy, a read more on a large first request would be all it changed.
public struct SmallFirstReads<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base

    public init(_ base: Base) { self.base = base }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.flatSubmit {
            do {
                try channel.syncOptions?.setOption(
                    ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 65536))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return base.setup(channel: channel, logger: logger)
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
