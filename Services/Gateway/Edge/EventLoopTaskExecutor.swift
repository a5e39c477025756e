import NIOCore

/// Runs a task's jobs on one NIO event loop: a gateway connection's handling then runs on the loop
/// that reads and writes its socket, and picks a module connection on that loop too
/// (`UpstreamClient`), so a proxied request never leaves the loop's thread.
///
/// On the cooperative pool each request crossed threads four times (the request to its task, the
/// task to the module connection's loop, the answer back, the response to the socket). On the
/// gateway benchmark's one connection (one event loop, release build), running on the loop took the
/// gateway's CPU per request from 211–234 µs to 194–212 µs and its context switches from 2.5 to 2.2
/// per request. NIO 2.101's event loops are serial executors but not task executors, hence this.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
