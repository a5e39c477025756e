import NIOConcurrencyHelpers

/// Whether this instance should be sent new requests. It stops being ready the moment graceful
/// shutdown begins, so an orchestrator (Kubernetes' readiness probe, the gateway's balancer) takes it
/// out of rotation while it finishes what is in flight and closes its sockets.
public final class Readiness: Sendable {
    private let draining = NIOLockedValueBox(false)

    public init() {}

    public var isDraining: Bool { draining.withLockedValue { $0 } }

    /// Called by `StagedShutdown` the moment graceful shutdown begins.
    public func beginDraining() { draining.withLockedValue { $0 = true } }
}
