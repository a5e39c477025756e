public import Foundation

// Wire types of a player's data export and of an account deletion's progress.

public enum DataExportTag: NamedThing { public static let noun = "data export" }
public typealias DataExportID = TypedID<DataExportTag>

public enum DataExportStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    /// Still being gathered from the services.
    case pending
    /// `document` holds it, until `expiresAt`.
    case ready
}

/// A copy of everything Huddle holds of a player, in a machine-readable form (GDPR Art. 20).
public struct DataExport: Codable, Equatable, Sendable {
    public var id: DataExportID
    public var status: DataExportStatus
    public var requestedAt: Date
    public var readyAt: Date?
    /// When the export is removed; asked for after it, it is gone (404).
    public var expiresAt: Date?
    /// Keyed by module (`auth`, `catalog`, `games`, `betting`, `chat`, `notify`, `purchases`,
    /// `search`), each an object of sections.
    public var document: [String: PersonalData]?

    public init(
        id: DataExportID, status: DataExportStatus, requestedAt: Date, readyAt: Date? = nil, expiresAt: Date? = nil,
        document: [String: PersonalData]? = nil
    ) {
        self.id = id
        self.status = status
        self.requestedAt = requestedAt
        self.readyAt = readyAt
        self.expiresAt = expiresAt
        self.document = document
    }
}

/// What one module holds of a player: sections by name (`teams`, `messages`, …), each any JSON
/// value, usually a list of records.
public struct PersonalData: Codable, Equatable, Sendable, SchemaDescribed {
    public var sections: [String: JSONValue]

    public init(_ sections: [String: JSONValue] = [:]) { self.sections = sections }

    public subscript(section: String) -> JSONValue? { sections[section] }

    public init(from decoder: any Decoder) throws {
        sections = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(sections)
    }

    public static var schema: JSONSchema {
        var schema = JSONSchema.object
        schema.description = "Sections by name, each any JSON value (usually a list of records)"
        return schema
    }
    public static var schemaSample: PersonalData { PersonalData() }
}

/// An account deletion as operators follow it: each service that holds players' data, and whether
/// it has erased this one's.
public struct DeletionProgress: Codable, Equatable, Sendable {
    public enum ServiceState: String, Codable, Sendable, CaseIterable, WireEnum {
        /// The service applied the deletion.
        case erased
        /// It has not yet (it may be down; it catches up when it is back).
        case pending
        /// It could not be asked.
        case unreachable
    }

    public struct Service: Codable, Equatable, Sendable {
        public var module: ServiceModule
        public var state: ServiceState
        public var erasedAt: Date?
        public init(module: ServiceModule, state: ServiceState, erasedAt: Date? = nil) {
            self.module = module
            self.state = state
            self.erasedAt = erasedAt
        }
    }

    public var userId: UserID
    public var deletedAt: Date
    /// True once every service has erased the player.
    public var complete: Bool
    public var services: [Service]

    public init(userId: UserID, deletedAt: Date, services: [Service]) {
        self.userId = userId
        self.deletedAt = deletedAt
        self.complete = services.allSatisfy { $0.state == .erased }
        self.services = services
    }
}
