import Contracts
import Logging
import ServiceKitTesting
import ServiceLifecycle
import Synchronization
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// A runner's services while they run, and a service that does not end once cancelled.
@Suite("Running services")
struct RunningServicesTests {
    // The limit turns the hang this prevents into a failure.
    @Test(
        "a service is named while it runs; one that ignores its cancellation is left behind, named in a warning, and the group ends",
        .timeLimit(.minutes(1)))
    func abandonedAfterCancellation() async throws {
        let recorder = LogRecorder()
        let logger = recorder.logger(label: "running-services")
        let running = RunningServices(abandonAfter: .milliseconds(200))
        let deaf = Deaf()
        defer { deaf.release() }
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: running.tracking(deaf, as: "deaf worker", logger: logger)),
                    .init(service: running.tracking(Polite(), as: "polite worker", logger: logger)),
                ],
                logger: logger))
        let run = Task { try await group.run() }
        #expect(try await eventually { running.names == ["deaf worker", "polite worker"] })
        run.cancel()
        // Without the bound, the deaf worker would hold the group (and this test) for ever.
        _ = await run.result
        #expect(running.names.isEmpty)
        #expect(recorder.logged.contains { $0.level == .warning && $0.message.contains("deaf worker had not ended") })
        #expect(!recorder.logged.contains { $0.message.contains("polite worker had not ended") })
    }

    @Test("without a deadline, starting waits for as long as a module takes to listen (its migrations); with one it gives up")
    func waitingToListen() async throws {
        let withDeadline = ListeningModules()
        await #expect(throws: StartupFailure.self) { try await withDeadline.wait(for: [.search], timeout: .milliseconds(50)) }

        let listening = ListeningModules()
        let waited = Atomic(false)
        let waiting = Task {
            try await listening.wait(for: [.search], timeout: nil)
            waited.store(true, ordering: .sequentiallyConsistent)
        }
        // Twice the deadline above, and still waiting.
        try await Task.sleep(for: .milliseconds(100))
        let waitedBeforeListening = waited.load(ordering: .sequentiallyConsistent)
        #expect(!waitedBeforeListening)
        await listening.markListening(.search)
        try await waiting.value
        let waitedOnceListening = waited.load(ordering: .sequentiallyConsistent)
        #expect(waitedOnceListening)

        // A module that failed to start ends the wait, deadline or none.
        let failed = ListeningModules()
        let abandoned = Task { try await failed.wait(for: [.search], timeout: nil) }
        await failed.markEnded()
        await #expect(throws: StartupFailure.self) { try await abandoned.value }
    }

    @Test("a service's error is what its tracked run throws")
    func errorsPassThrough() async throws {
        let running = RunningServices()
        await #expect(throws: Failing.Failure.self) {
            try await running.tracking(Failing(), as: "failing", logger: Logger(label: "x")).run()
        }
        #expect(running.names.isEmpty)
    }
}

/// Waits, whatever happens to its task, until the test releases it.
private final class Deaf: Service, Sendable {
    private let waiting = Mutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func run() async throws {
        await withCheckedContinuation { continuation in
            let released = waiting.withLock { waiting in
                if !waiting.released { waiting.waiter = continuation }
                return waiting.released
            }
            if released { continuation.resume() }
        }
    }

    func release() {
        waiting.withLock { waiting in
            waiting.released = true
            defer { waiting.waiter = nil }
            return waiting.waiter
        }?.resume()
    }
}

/// Ends when cancelled, as a service should.
private struct Polite: Service {
    func run() async throws {
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
    }
}

private struct Failing: Service {
    struct Failure: Error {}
    func run() async throws { throw Failure() }
}
