public import Contracts
import Foundation
import HuddleEffects
public import ServerContracts
import ServiceHTTP

extension TestClient {
    /// Delivers `events` to this module's `/internal/events` as the services that own them would
    /// (a batch a publisher, in order, each signed by its publisher) and expects them taken (204).
    public func deliver(_ events: [EventEnvelope], to module: ServiceModule) async throws {
        var runs: [(publisher: ServiceModule, events: [EventEnvelope])] = []
        for event in events {
            guard let publisher = event.type.split(separator: ".").first.flatMap({ ServiceModule(rawValue: String($0)) }) else {
                throw UnknownPublisher(type: event.type)
            }
            if runs.last?.publisher == publisher { runs[runs.count - 1].events.append(event) } else { runs.append((publisher, [event])) }
        }
        for run in runs {
            let credited = TestClient(baseURL: baseURL, internalCallers: TestStack.internalCallers.acting(as: run.publisher))
            _ = try await expect(204, credited.call(EventsAPI.deliver(to: module), body: EventBatch(events: run.events)))
        }
    }

    struct UnknownPublisher: Error { let type: String }

    /// Delivers events made of a type, an aggregate and a payload, each under a new id (`deliver`),
    /// for tests of what a consumer does with an event whenever it arrives.
    public func deliverEvents(_ events: [(type: any EventKind, aggregate: String, payload: any Encodable)], to module: ServiceModule)
        async throws
    {
        struct Payload: Encodable {
            let value: any Encodable
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        try await deliver(
            try events.map {
                EventEnvelope(
                    type: $0.type.name, aggregateID: $0.aggregate, occurredAt: Effects.system.now(),
                    payload: try HuddleJSON.encoder.encode(Payload(value: $0.payload)))
            }, to: module)
    }
}
