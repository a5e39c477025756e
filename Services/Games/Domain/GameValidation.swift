import Contracts
import Foundation
import ServiceHTTP

/// Field rules for games' requests, beside the shared `FieldRules`.
enum GameValidation {
    static let capacityRange = GameLimits.capacity
    static let subsRange = SubstitutesRequest.neededRange
    /// Games are planned at most this far ahead.
    static let horizon: TimeInterval = 2 * 365 * 24 * 3600

    static func startsAt(_ value: Date, now: Date, field: String = "startsAt") -> [Problem.FieldError] {
        if value <= now { return [.invalid(field, "must be in the future")] }
        if value > now.addingTimeInterval(horizon) { return [.invalid(field, "must be within two years")] }
        return []
    }

    static func capacity(_ value: Int?, field: String = "capacity") -> [Problem.FieldError] {
        guard let value, !capacityRange.contains(value) else { return [] }
        return [.invalid(field, "must be from \(capacityRange.lowerBound) to \(capacityRange.upperBound)")]
    }

    /// Players without accounts the organiser already has: in range, and leaving the organiser a slot.
    static func alreadyGoing(_ value: Int?, capacity: Int?) -> [Problem.FieldError] {
        guard let value else { return [] }
        let range = GameLimits.alreadyGoing
        guard range.contains(value) else {
            return [.invalid("alreadyGoing", "must be from \(range.lowerBound) to \(range.upperBound)")]
        }
        guard let capacity, capacityRange.contains(capacity), value >= capacity else { return [] }
        return [.invalid("alreadyGoing", "must leave the organiser one of the \(capacity) slots")]
    }

    static func description(_ value: String?) -> [Problem.FieldError] {
        value.flatMap(GameLimits.description.problem).map { [.init(field: "description", message: $0)] } ?? []
    }

    static func location(_ value: Location?) -> [Problem.FieldError] {
        value.map { FieldRules.location($0) } ?? []
    }

    /// A field that `kind` needs.
    static func timeZone(_ value: String?) -> [Problem.FieldError] {
        guard let value, TimeZone(identifier: value) == nil else { return [] }
        return [.invalid("timeZone", "must be an IANA time zone, e.g. Europe/Tallinn")]
    }

    /// Shared by create and update: every field a client may send, checked at once.
    static func common(startsAt: Date?, timeZone: String?, location: Location?, capacity: Int?, description: String?, now: Date)
        -> [Problem.FieldError]
    {
        (startsAt.map { self.startsAt($0, now: now) } ?? []) + self.timeZone(timeZone) + self.location(location)
            + self.capacity(capacity) + self.description(description)
    }
}
