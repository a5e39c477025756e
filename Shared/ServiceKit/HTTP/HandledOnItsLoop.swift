public import HummingbirdCore
public import Logging
public import NIOCore

/// A server's connections, each handled on the event loop that reads and writes its socket
/// (`EventLoopTaskExecutor`): a request's handler, from its body to its answer, stays on that thread.
/// The gateway's connections and those of every server without live sockets are; chat's and games'
/// are not: with their connections handled this way, or only passing through code that could, each
/// socket's task held a kilobyte more, an idle chat socket 30.7 KB against 29.7 (`huddle-bench chat`,
/// 10,000 sockets, two runs each), over its 30 KB target.
public struct HandledOnItsLoop<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base

    public init(_ base: Base) { self.base = base }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    public func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// Runs a task's jobs on one NIO event loop (see `HandledOnItsLoop`).
///
/// On the cooperative pool each request crossed threads at least twice more (the request to its
/// task, the answer back to the socket's loop), each a wake-up of a sleeping thread. On the gateway
/// benchmark's one connection (one event loop, release build), running on the loop took the
/// gateway's CPU per request from 211–234 µs to 194–212 µs and its context switches from 2.5 to 2.2
/// per request; betting's tickets at 4 clients went from 1,697–1,765 to 1,789–1,903 a second in four
/// alternated pairs (`huddle-bench tickets` on PostgreSQL). NIO 2.101's event loops are serial
/// executors but not task executors, hence this. Work that would hold a loop for long runs elsewhere
/// already: bcrypt on the thread pool (`Secrets`), SQLite's statements on SQLiteNIO's threads.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
