import Contracts
import ServiceStore

/// Which categories are pushed to a player: every category, those without a setting on.
struct Preferences: Sendable {
    let database: Database
    let store: any PreferenceStore

    func of(_ user: UserID) async throws -> NotificationPreferences {
        try await database.read { sql in Self.answer(try await store.switches(of: user, on: sql)) }
    }

    func set(_ categories: CategorySwitches, of user: UserID) async throws -> NotificationPreferences {
        try await database.transaction { sql in
            try await store.set(categories.switches, of: user, on: sql)
            return Self.answer(try await store.switches(of: user, on: sql))
        }
    }

    private static func answer(_ switches: [NotificationCategory: Bool]) -> NotificationPreferences {
        NotificationPreferences(
            categories: CategorySwitches(Dictionary(uniqueKeysWithValues: NotificationCategory.allCases.map { ($0, switches[$0] ?? true) }))
        )
    }
}
