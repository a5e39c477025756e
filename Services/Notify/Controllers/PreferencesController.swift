import Contracts
import Hummingbird
import ServiceKit

/// `/v1/notifications/preferences`: which categories are pushed to me.
struct PreferencesController: Controller {
    let database: Database
    let store: any PreferenceStore

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.preferences) { _, context in
            try await database.read { sql in Self.answer(try await store.switches(of: context.userID, on: sql)) }
        }
        router.on(NotifyAPI.setPreferences) { body, _, context in
            try await database.transaction { sql in
                try await store.set(body.categories.switches, of: context.userID, on: sql)
                return Self.answer(try await store.switches(of: context.userID, on: sql))
            }
        }
    }

    /// Every category: those without a setting are pushed.
    private static func answer(_ switches: [NotificationCategory: Bool]) -> NotificationPreferences {
        NotificationPreferences(
            categories: CategorySwitches(Dictionary(uniqueKeysWithValues: NotificationCategory.allCases.map { ($0, switches[$0] ?? true) }))
        )
    }
}
