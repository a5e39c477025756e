import NIOConcurrencyHelpers

/// Wakes loops in this process that wait for work: whoever makes work rings, each loop waits for a
/// ring after the one it last saw. A loop reads `rings` before it looks for work and waits `since`
/// that count, so a ring that came while it was looking wakes it at once instead of being lost, and
/// every loop waiting on one bell (each subscriber of an outbox, each push worker) sees every ring.
public final class Bell: Sendable {
    private struct State {
        var rings: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }
    private let state = NIOLockedValueBox(State())

    public init() {}

    /// How many times it has rung: read it before looking for work, and wait since it.
    public var rings: UInt64 { state.withLockedValue { $0.rings } }

    public func ring() {
        let waiters = state.withLockedValue { state in
            state.rings &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after `timeout`, or as soon as it has rung more than `seen` times.
    public func wait(upTo timeout: Duration, since seen: UInt64) async {
        guard timeout > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.rung(since: seen) }
            await group.next()
            group.cancelAll()
        }
    }

    private func rung(since seen: UInt64) async {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state in
                    if state.rings != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
