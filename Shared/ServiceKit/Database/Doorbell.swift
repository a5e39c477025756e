public import Logging
import NIOConcurrencyHelpers
public import SQLKit
public import ServiceLifecycle

/// Wakes polling workers as soon as there is work: a worker waits on it for at most its poll
/// interval, and whoever commits new work notifies the doorbell's channel with the commit, which
/// rings every replica's doorbell (`Database.notify`). Polling stays as the safety net for a missed
/// ring; the ring takes the poll interval out of the latency (a push waited up to 200 ms for the
/// next poll).
public final class Doorbell: Service, Sendable {
    public let channel: String
    private let database: Database
    private let logger: Logger
    private struct State {
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Rung while no one waited: the next wait returns at once.
        var pending = false
    }
    private let state = NIOLockedValueBox(State())

    public init(channel: String, database: Database, logger: Logger) {
        self.channel = channel
        self.database = database
        self.logger = logger
    }

    /// Announces new work with the transaction's commit, to this process and every replica.
    public func ring(on sql: any SQLDatabase) async throws {
        try await database.notify(channel: channel, payload: "", on: sql)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.database.keepListening(channel: self.channel, logger: self.logger) { _ in self.ring() }
        }
    }

    /// Returns after `timeout`, or sooner when rung.
    public func wait(upTo timeout: Duration) async {
        guard timeout > .zero else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.rung() }
            await group.next()
            group.cancelAll()
        }
    }

    func ring() {
        let waiters = state.withLockedValue { state in
            defer { state.waiters = [:] }
            if state.waiters.isEmpty { state.pending = true }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func rung() async {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
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
