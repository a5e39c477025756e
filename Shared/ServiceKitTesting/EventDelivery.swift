public import Contracts
import Foundation
import ServiceKit

extension TestClient {
    /// Delivers `events` to this module's `/internal/events` as the services that own them would
    /// (one batch, in order) and expects them taken (204).
    public func deliver(_ events: [EventEnvelope], to module: ServiceModule) async throws {
        let credited = TestClient(baseURL: baseURL, internalCredential: TestStack.internalToken)
        _ = try await expect(204, credited.call(EventsAPI.deliver(to: module), body: EventBatch(events: events)))
    }

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
                    type: $0.type.name, aggregateID: $0.aggregate, occurredAt: Date(),
                    payload: try HuddleJSON.encoder.encode(Payload(value: $0.payload)))
            }, to: module)
    }
}
