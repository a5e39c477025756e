public import Contracts
import Logging
public import ServerContracts
public import ServiceHTTP

/// Delivers outbox events to another module's `/internal/events`.
public struct EventsClient: EventTransport {
    let dependencies: ServiceDependencies
    let timeout: Duration

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.dependencies = dependencies
        self.timeout = timeout
    }

    /// Throws `EventsRefused` when the subscriber answered and would not take the batch, and
    /// `dependencyUnavailable` when it did not answer or is not there to take it yet.
    public func deliver(_ events: [EventEnvelope], to subscriber: ServiceModule) async throws {
        let (status, problem) = try await InternalClient(subscriber, dependencies: dependencies, timeout: timeout)
            .answer(to: EventsAPI.deliver(to: subscriber), body: EventBatch(events: events))
        if (200..<300).contains(status) { return }
        if EventsRefused.refuses(status) {
            throw EventsRefused(status: status, detail: problem?.detail ?? problem?.title ?? "no detail")
        }
        dependencies.logger.warning("\(subscriber.rawValue) answered \(status) to events")
        throw CommonError.dependencyUnavailable(subscriber.rawValue)
    }
}

/// The subscriber answered and would not take a batch: the events (one of them, usually) are at
/// fault, not the subscriber's presence. The outbox retries a refused batch a bounded number of
/// times, then parks the event refused (`OutboxDispatcher`), where one it could not reach is retried
/// for as long as it takes.
public struct EventsRefused: Error, CustomStringConvertible {
    public var status: Int
    public var detail: String

    public init(status: Int, detail: String) {
        self.status = status
        self.detail = detail
    }

    public var description: String { "\(status): \(detail)" }

    /// A status that refuses the events themselves: a bad request, a conflict, a payload too large,
    /// a handler that failed. Not one that says the subscriber cannot take anything yet (busy,
    /// starting, not upgraded, not letting this publisher in), which would park every event.
    public static func refuses(_ status: Int) -> Bool {
        switch status {
        case 401, 403, 404, 405, 408, 429: false
        case 400..<500, 500: true
        default: false
        }
    }
}
