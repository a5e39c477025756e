public import Foundation

/// A UUID that knows what it identifies, so a user id cannot be passed where a session id is expected.
/// Encodes as a plain UUID string.
public struct TypedID<Tag>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) { self.uuid = uuid }

    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }

    public init(from decoder: any Decoder) throws {
        self.uuid = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Lowercase canonical form, the one stored and sent on the wire.
    public var description: String { uuid.uuidString.lowercased() }
}

public enum UserTag {}
public enum SessionTag {}
public enum EventTag {}

public typealias UserID = TypedID<UserTag>
public typealias SessionID = TypedID<SessionTag>
public typealias EventID = TypedID<EventTag>
