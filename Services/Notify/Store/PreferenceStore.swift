import Contracts
import SQLKit
import ServiceStore

/// The categories users turned off or back on; a category without a row is pushed.
protocol PreferenceStore: Sendable {
    func switches(of user: UserID, on sql: any SQLDatabase) async throws -> [NotificationCategory: Bool]
    func set(_ switches: [NotificationCategory: Bool], of user: UserID, on sql: any SQLDatabase) async throws
    /// Of `users`, those who turned `category` off.
    func mutedUsers(_ users: [UserID], category: NotificationCategory, on sql: any SQLDatabase) async throws -> Set<UserID>
}

struct SQLPreferenceStore: PreferenceStore {
    func switches(of user: UserID, on sql: any SQLDatabase) async throws -> [NotificationCategory: Bool] {
        let rows = try await sql.select().columns("category", "pushed").from("preferences")
            .where("user_id", .equal, SQLBind(user.description)).all()
        var switches: [NotificationCategory: Bool] = [:]
        // A category this version no longer knows is left out.
        for row in rows {
            if let category = NotificationCategory(rawValue: try row.decode(column: "category", as: String.self)) {
                switches[category] = try row.decode(column: "pushed", as: Bool.self)
            }
        }
        return switches
    }

    func set(_ switches: [NotificationCategory: Bool], of user: UserID, on sql: any SQLDatabase) async throws {
        for (category, pushed) in switches.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try await sql.insert(into: "preferences").columns("user_id", "category", "pushed")
                .values(SQLBind(user.description), SQLBind(category.rawValue), SQLBind(pushed))
                .onConflict(with: ["user_id", "category"]) { $0.set(excludedValueOf: "pushed") }.run()
        }
    }

    func mutedUsers(_ users: [UserID], category: NotificationCategory, on sql: any SQLDatabase) async throws -> Set<UserID> {
        guard !users.isEmpty else { return [] }
        let rows = try await sql.select().column("user_id").from("preferences")
            .where(SQLInList("user_id", users.map(\.description))).where("category", .equal, SQLBind(category.rawValue))
            .where("pushed", .equal, SQLBind(false)).all()
        return Set(try rows.map { try $0.typedID("user_id") })
    }
}
