public import Contracts
public import Foundation

/// An event a module has applied (`GET /internal/events/{id}`).
public struct AppliedEvent: Codable, Equatable, Sendable {
    public var eventId: EventID
    public var type: String
    public var appliedAt: Date
    public init(eventId: EventID, type: String, appliedAt: Date) {
        self.eventId = eventId
        self.type = type
        self.appliedAt = appliedAt
    }
}
