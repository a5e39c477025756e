public import Contracts
import Foundation
import ServiceKit

extension TestClient {
    /// Delivers events to this module's `/internal/events` as the service that owns them would (one
    /// batch, in order), for tests of what a consumer does with an event whenever it arrives.
    public func deliverEvents(_ events: [(type: String, aggregate: String, payload: any Encodable)], to module: ServiceModule)
        async throws
    {
        struct Payload: Encodable {
            let value: any Encodable
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        let envelopes = try events.map {
            EventEnvelope(
                type: $0.type, aggregateID: $0.aggregate, occurredAt: Date(),
                payload: try HuddleJSON.encoder.encode(Payload(value: $0.payload)))
        }
        _ = try await expect(
            204,
            post(
                EventsAPI.deliver(to: module).path(), json: EventBatch(events: envelopes),
                headers: [Routes.Header.internalToken: TestStack.internalToken]))
    }
}
