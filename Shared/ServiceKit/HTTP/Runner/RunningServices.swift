public import Logging
public import ServiceLifecycle
import Synchronization

/// The services of one runner that have started and not yet returned, by name; and a bound on how
/// long a service may take to end once cancelled.
///
/// Why the bound: now and then a background worker (an outbox's dispatcher, auth's export worker)
/// went on waiting after it was cancelled, and its module's stop, and so the whole process's, never
/// ended (a test run hung until its 20-minute limit). The cause was a statement written to a
/// PostgreSQL connection the cancelled pool had just closed (see `PostgresConnectionStatements`),
/// but a service may wait on anything: one that has not returned `abandonAfter` past its
/// cancellation is still left behind with a warning naming it, so stopping ends.
public final class RunningServices: Sendable {
    private let running = Mutex<[String: Int]>([:])
    let abandonAfter: Duration

    public init(abandonAfter: Duration = .seconds(5)) { self.abandonAfter = abandonAfter }

    /// The names of the services running now, with how many of that name run when more than one.
    public var names: [String] {
        running.withLock { running in running.sorted { $0.key < $1.key }.map { $0.value > 1 ? "\($0.key) ×\($0.value)" : $0.key } }
    }

    /// `service`, counted here while its `run` is under way, and left behind (with a warning to
    /// `logger`) if it has not returned `abandonAfter` (plus `later`) after it was cancelled. A
    /// service whose own services are tracked waits `later` more, so that what held it is named
    /// rather than it.
    public func tracking(_ service: any Service, as name: String, later: Duration = .zero, logger: Logger) -> any Service {
        Tracked(base: service, name: name, running: self, patience: abandonAfter + later, logger: logger)
    }

    fileprivate func started(_ name: String) { running.withLock { $0[name, default: 0] += 1 } }

    fileprivate func returned(_ name: String) {
        running.withLock { running in
            running[name, default: 1] -= 1
            if running[name] == 0 { running[name] = nil }
        }
    }
}

private struct Tracked: Service, CustomStringConvertible {
    let base: any Service
    let name: String
    let running: RunningServices
    let patience: Duration
    let logger: Logger

    var description: String { name }

    func run() async throws {
        running.started(name)
        defer { running.returned(name) }
        // Unstructured, so that a run that does not end can be left behind; it keeps this task's
        // task-locals, and with them the group's graceful shutdown.
        let work = Task { try await base.run() }
        let outcome = Outcome()
        Task { outcome.settle(await work.result) }
        let (name, logger, patience) = (name, logger, patience)
        try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            work.cancel()
            Task {
                try? await Task.sleep(for: patience)
                if outcome.abandon() { logger.warning("\(name) had not ended \(patience) after it was cancelled; left behind") }
            }
        }
    }
}

/// How a tracked run ended, handed once to whoever waits: its result, or that it was left behind.
private final class Outcome: Sendable {
    private enum State {
        case running(waiter: CheckedContinuation<Void, any Error>?)
        case ended(Result<Void, any Error>)
    }
    private let state = Mutex(State.running(waiter: nil))

    func value() async throws {
        try await withCheckedThrowingContinuation { continuation in
            let ended: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .ended(let result): return result
                case .running:
                    state = .running(waiter: continuation)
                    return nil
                }
            }
            if let ended { continuation.resume(with: ended) }
        }
    }

    func settle(_ result: Result<Void, any Error>) { _ = end(with: result) }

    /// Ends the wait as if the run had returned; false when it had already ended.
    func abandon() -> Bool { end(with: .success(())) }

    private func end(with result: Result<Void, any Error>) -> Bool {
        let (waiter, ended): (CheckedContinuation<Void, any Error>?, Bool) = state.withLock { state in
            guard case .running(let waiter) = state else { return (nil, false) }
            state = .ended(result)
            return (waiter, true)
        }
        waiter?.resume(with: result)
        return ended
    }
}
