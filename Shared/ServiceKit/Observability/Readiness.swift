import NIOConcurrencyHelpers
public import ServiceLifecycle

/// Whether this instance should be sent new requests. It stops being ready the moment graceful
/// shutdown begins, so an orchestrator (Kubernetes' readiness probe, the gateway's balancer) takes it
/// out of rotation while it finishes what is in flight and closes its sockets.
public final class Readiness: Sendable {
    private let draining = NIOLockedValueBox(false)

    public init() {}

    public var isDraining: Bool { draining.withLockedValue { $0 } }

    public func beginDraining() { draining.withLockedValue { $0 = true } }

    /// A service that waits for graceful shutdown to begin and then marks the instance draining.
    public var drainOnShutdown: some Service { DrainOnShutdown(readiness: self) }
}

private struct DrainOnShutdown: Service {
    let readiness: Readiness

    func run() async throws {
        try? await gracefulShutdown()
        readiness.beginDraining()
    }
}
