public import Contracts

/// Delivers outbox events to another module's `/internal/events`.
public struct EventsClient: EventTransport {
    let dependencies: ServiceDependencies
    let timeout: Duration

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.dependencies = dependencies
        self.timeout = timeout
    }

    public func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
        _ = try await InternalClient(subscriber, dependencies: dependencies, timeout: timeout)
            .call(EventsAPI.deliver(to: subscriber), body: EventBatch(events: events))
    }
}
