public import Contracts
import Foundation
public import SQLKit
public import ServiceStore

/// One section of what a module holds of a player: the rows its query finds, each a JSON object of
/// the columns named, typed as declared (`sent_at` becomes `sentAt`). Naming the columns keeps what
/// is internal (hashes, idempotency fingerprints) out of the export, and typing them makes a time a
/// time on both stores, where SQLite alone would answer a number.
public struct PersonalDataSection: Sendable {
    public enum Column: Sendable {
        case text(String), integer(String), number(String), boolean(String), time(String)
        /// A text column holding JSON (a notification's data): exported as that JSON.
        case json(String)
    }

    public let name: String
    let columns: [Column]
    let query: @Sendable (UserID) -> SQLQueryString

    public init(_ name: String, columns: [Column], query: @escaping @Sendable (UserID) -> SQLQueryString) {
        self.name = name
        self.columns = columns
        self.query = query
    }

    func rows(of user: UserID, on sql: any SQLDatabase) async throws -> JSONValue {
        .array(try await sql.raw(query(user)).all().map { row in .object(try Self.object(row, columns)) })
    }

    static func object(_ row: any SQLRow, _ columns: [Column]) throws -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for column in columns {
            let name = column.name
            let key = Self.camelCase(name)
            guard try !row.decodeNil(column: name) else {
                object[key] = .null
                continue
            }
            switch column {
            case .text: object[key] = .string(try row.decode(column: name, as: String.self))
            case .integer: object[key] = .integer(try row.decode(column: name, as: Int64.self))
            case .number: object[key] = .number(try row.decode(column: name, as: Double.self))
            case .boolean: object[key] = .bool(try row.decode(column: name, as: Bool.self))
            case .time: object[key] = .string(HuddleJSON.formatRFC3339(try row.decode(column: name, as: Date.self)))
            case .json:
                let text = try row.decode(column: name, as: String.self)
                object[key] = (try? HuddleJSON.decoder.decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
            }
        }
        return object
    }

    static func camelCase(_ column: String) -> String {
        let parts = column.split(separator: "_")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
    }
}

extension PersonalDataSection.Column {
    var name: String {
        switch self {
        case .text(let name), .integer(let name), .number(let name), .boolean(let name), .time(let name), .json(let name): name
        }
    }
}

/// What a module holds of a player, section by section, read in one transaction so the sections
/// agree with each other. Each module that erases a deleted account's data declares its sections
/// with `ServiceSkeleton.exportPersonalData`; auth gathers them into the player's export.
public struct PersonalDataExport: Sendable {
    public let sections: [PersonalDataSection]

    public init(_ sections: [PersonalDataSection]) { self.sections = sections }

    public func gather(for user: UserID, from database: Database) async throws -> PersonalData {
        try await database.read { sql in
            var data = PersonalData()
            for section in sections { data.sections[section.name] = try await section.rows(of: user, on: sql) }
            return data
        }
    }
}
