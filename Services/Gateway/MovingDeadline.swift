import NIOCore

/// A deadline that moves with every request on a connection (the next answer due from a module, the
/// end of a client connection's quiet), checked by one timer rather than one set and cancelled a
/// request. Why: each such timer cost a scheduled task, its promise and two changes to the event
/// loop's timer heap; for the exchanges with modules that was 1.9 % of the gateway's CPU at one
/// connection (perf). The timer is left to fire at the deadline it was set for, and then fires
/// `passed` if the deadline has passed, or sets itself for the deadline it moved to. Lives on one
/// event loop, inside a handler.
final class MovingDeadline {
    private let eventLoop: any EventLoop
    private let passed: () -> Void
    private var due: NIODeadline?
    private var check: (at: NIODeadline, task: Scheduled<Void>)?

    init(on eventLoop: any EventLoop, whenPassed passed: @escaping () -> Void) {
        self.eventLoop = eventLoop
        self.passed = passed
    }

    /// From now on the deadline is `deadline`, or none.
    func move(to deadline: NIODeadline?) {
        due = deadline
        guard let deadline else { return }
        if let check {
            // A timer that fires by then is left to find the new deadline.
            guard check.at > deadline else { return }
            check.task.cancel()
        }
        schedule(at: deadline)
    }

    /// No deadline any more, nor its timer: the connection has closed.
    func cancel() {
        due = nil
        check?.task.cancel()
        check = nil
    }

    private func schedule(at time: NIODeadline) {
        let task = eventLoop.assumeIsolated().scheduleTask(deadline: time) {
            self.check = nil
            guard let due = self.due else { return }
            if due <= self.eventLoop.now {
                self.due = nil
                self.passed()
            } else {
                self.schedule(at: due)
            }
        }
        check = (time, task)
    }
}
